import onnxProto from "onnx-proto";

const { onnx } = onnxProto;

/** A TensorFlow.js graph model (`model.json`): a frozen TensorFlow GraphDef plus a manifest of its weights. */
export interface TfGraphModel {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: TfWeightSpec[] }[];
}

interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}

interface TfAttr {
  i?: string | number;
  b?: boolean;
  s?: string | number[];
  type?: string | number;
  list?: { i?: (string | number)[] };
  shape?: { dim?: { size: string | number }[] };
}

interface TfWeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: unknown;
}

interface Constant {
  dtype: "float32" | "int64";
  shape: number[];
  values: Float32Array | BigInt64Array;
}

// ONNX opset 18 takes reduction axes as inputs for every Reduce* op, which keeps the translation uniform.
const OPSET = 18;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
// TensorFlow DataType enum values and names, as model.json may spell them either way.
const TF_FLOAT = new Set<string | number>([1, "DT_FLOAT"]);
const TF_INTEGER = new Set<string | number>([3, 9, "DT_INT32", "DT_INT64"]);
const TF_BOOL = new Set<string | number>([10, "DT_BOOL"]);

const ELEMENTWISE: Record<string, string> = {
  Add: "Add",
  AddV2: "Add",
  Sub: "Sub",
  Mul: "Mul",
  RealDiv: "Div",
  Maximum: "Max",
  Minimum: "Min",
  Less: "Less",
  Greater: "Greater",
  LogicalNot: "Not",
  Sin: "Sin",
  Cos: "Cos",
  Tanh: "Tanh",
  Relu: "Relu",
  Shape: "Shape",
  Reshape: "Reshape",
  Identity: "Identity",
  GatherNd: "GatherND",
};

const REDUCTIONS: Record<string, string> = { Sum: "ReduceSum", Mean: "ReduceMean", Max: "ReduceMax", Prod: "ReduceProd" };

/**
 * Translates a TensorFlow.js graph model into an ONNX model that onnxruntime runs natively (multi-threaded,
 * with its graph optimiser), instead of TF.js on single-threaded WebAssembly. It covers the ops that
 * sentence encoders such as USE-lite use and refuses any other op by name. Every TensorFlow integer becomes
 * int64, the type ONNX wants for shapes and indices.
 */
export function tfGraphToOnnx(graph: TfGraphModel, readShard: (path: string) => Uint8Array, output: string): Uint8Array {
  const translation = new Translation(readWeights(graph, readShard));
  for (const node of graph.modelTopology.node) translation.translate(node);
  return translation.encode(output);
}

function readWeights(graph: TfGraphModel, readShard: (path: string) => Uint8Array): Map<string, Constant> {
  const constants = new Map<string, Constant>();
  for (const group of graph.weightsManifest) {
    const shards = group.paths.map(readShard);
    const bytes = new Uint8Array(shards.reduce((sum, shard) => sum + shard.byteLength, 0));
    shards.reduce((offset, shard) => {
      bytes.set(shard, offset);
      return offset + shard.byteLength;
    }, 0);
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.quantization) throw new Error(`quantised weight ${spec.name} is not supported`);
      const count = spec.shape.reduce((product, size) => product * size, 1);
      // Every weight is 4 bytes wide, so each view starts 4-byte aligned in the fresh buffer.
      if (spec.dtype === "float32") constants.set(spec.name, { dtype: "float32", shape: spec.shape, values: new Float32Array(bytes.buffer, offset, count) });
      else if (spec.dtype === "int32") constants.set(spec.name, { dtype: "int64", shape: spec.shape, values: BigInt64Array.from(new Int32Array(bytes.buffer, offset, count), BigInt) });
      else throw new Error(`weight ${spec.name} has unsupported dtype ${spec.dtype}`);
      offset += count * 4;
    }
  }
  return constants;
}

class Translation {
  private readonly nodes: onnxProto.onnx.INodeProto[] = [];
  private readonly initializers: onnxProto.onnx.ITensorProto[] = [];
  private readonly inputs: onnxProto.onnx.IValueInfoProto[] = [];
  private readonly ranks = new Map<string, number>();
  // Constants become initializers only when a node reads them; many are consumed by the translation itself.
  private readonly materialised = new Set<string>();
  private fresh = 0;

  constructor(private readonly constants: Map<string, Constant>) {}

  translate(node: TfNode): void {
    const inputs = (node.input ?? []).filter((name) => !name.startsWith("^")).map(tensorName);
    const attr = node.attr ?? {};
    const out = node.name;
    switch (node.op) {
      case "Const":
        this.constant(node.name);
        return;
      case "Placeholder":
        this.placeholder(node.name, attr);
        return;
      case "BiasAdd":
        if (attr.data_format && decodeString(attr.data_format) !== "NHWC") throw new Error(`${node.name}: only NHWC BiasAdd is supported`);
        return void this.emit("Add", inputs, [out]);
      case "Square":
        return void this.emit("Mul", [inputs[0]!, inputs[0]!], [out]);
      case "Rsqrt":
        return void this.emit("Reciprocal", [this.emit("Sqrt", inputs)], [out]);
      case "Softmax":
        return void this.emit("Softmax", inputs, [out], { axis: -1 });
      case "Cast":
        return void this.emit("Cast", inputs, [out], { to: onnxType(attr.DstT?.type) });
      case "Where":
        if (inputs.length !== 1) throw new Error(`${node.name}: only the one-input Where (indices of true values) is supported`);
        return void this.emit("Transpose", [this.emit("NonZero", inputs)], [out], { perm: [1, 0] });
      case "ExpandDims":
        return void this.emit("Unsqueeze", [inputs[0]!, this.int64([this.intValue(inputs[1]!)])], [out]);
      case "Squeeze": {
        const axes = (attr.squeeze_dims ?? attr.axis)?.list?.i?.map(Number) ?? [];
        return void this.emit("Squeeze", axes.length > 0 ? [inputs[0]!, this.int64(axes)] : [inputs[0]!], [out]);
      }
      case "GatherV2":
        if (Number(attr.batch_dims?.i ?? 0) !== 0) throw new Error(`${node.name}: GatherV2 with batch_dims is not supported`);
        return void this.emit("Gather", [inputs[0]!, inputs[1]!], [out], { axis: this.intValue(inputs[2]!) });
      case "ConcatV2":
        return void this.emit("Concat", inputs.slice(0, -1), [out], { axis: this.intValue(inputs.at(-1)!) });
      case "Pack": {
        const axis = Number(attr.axis?.i ?? 0);
        const axes = this.int64([axis]);
        return void this.emit(
          "Concat",
          inputs.map((input) => this.emit("Unsqueeze", [input, axes])),
          [out],
          { axis },
        );
      }
      case "Transpose": {
        const perm = this.intValues(inputs[1]!);
        this.ranks.set(out, perm.length);
        return void this.emit("Transpose", [inputs[0]!], [out], { perm });
      }
      case "MatMul": {
        const a = attr.transpose_a?.b ? this.emit("Transpose", [inputs[0]!], undefined, { perm: [1, 0] }) : inputs[0]!;
        const b = attr.transpose_b?.b ? this.emit("Transpose", [inputs[1]!], undefined, { perm: [1, 0] }) : inputs[1]!;
        return void this.emit("MatMul", [a, b], [out]);
      }
      case "BatchMatMul":
      case "BatchMatMulV2": {
        const a = attr.adj_x?.b ? this.swapLastTwo(inputs[0]!) : inputs[0]!;
        const b = attr.adj_y?.b ? this.swapLastTwo(inputs[1]!) : inputs[1]!;
        return void this.emit("MatMul", [a, b], [out]);
      }
      case "Conv2D":
        return void this.emit("MatMul", [inputs[0]!, this.pointwiseKernel(node, inputs[1]!)], [out]);
      case "Slice":
        this.slice(node.name, inputs);
        return;
      case "StridedSlice":
        this.stridedSlice(node.name, inputs, attr);
        return;
      case "SplitV":
        this.splitV(node.name, inputs, attr);
        return;
      case "SparseToDense": {
        const dense = this.emit("Expand", [inputs[3]!, inputs[1]!]);
        return void this.emit("ScatterND", [dense, inputs[0]!, inputs[2]!], [out]);
      }
      case "ScatterNd": {
        const zero = this.scalar(attr.T?.type, 0);
        return void this.emit("ScatterND", [this.emit("Expand", [zero, inputs[2]!]), inputs[0]!, inputs[1]!], [out]);
      }
      case "Range":
        return void this.emit("Range", inputs, [out]);
      default:
        if (REDUCTIONS[node.op]) {
          const axes = this.int64(this.intValues(inputs[1]!));
          return void this.emit(REDUCTIONS[node.op]!, [inputs[0]!, axes], [out], { keepdims: attr.keep_dims?.b ? 1 : 0 });
        }
        if (ELEMENTWISE[node.op]) {
          const ranks = inputs.map((input) => this.ranks.get(input));
          if (ranks.every((rank) => rank !== undefined)) this.ranks.set(out, Math.max(...(ranks as number[])));
          return void this.emit(ELEMENTWISE[node.op]!, inputs, [out]);
        }
        throw new Error(`${node.name}: TensorFlow op ${node.op} is not supported`);
    }
  }

  encode(output: string): Uint8Array {
    const graph = onnx.GraphProto.create({
      name: "tfjs-graph",
      node: this.nodes,
      initializer: this.initializers,
      input: this.inputs,
      output: [onnx.ValueInfoProto.create({ name: output, type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT } } })],
    });
    const model = onnx.ModelProto.create({
      irVersion: onnx.Version.IR_VERSION,
      producerName: "skill-router tfGraphToOnnx",
      opsetImport: [{ domain: "", version: OPSET }],
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }

  private constant(name: string): void {
    const constant = this.constants.get(name);
    if (!constant) throw new Error(`${name}: constant has no weights in the manifest`);
    this.ranks.set(name, constant.shape.length);
  }

  private placeholder(name: string, attr: Record<string, TfAttr>): void {
    const dims = (attr.shape?.shape?.dim ?? []).map((dim, index) => (Number(dim.size) >= 0 ? { dimValue: Number(dim.size) } : { dimParam: `${name}_${index}` }));
    this.ranks.set(name, dims.length);
    this.inputs.push(onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: onnxType(attr.dtype?.type), shape: { dim: dims } } } }));
  }

  private slice(name: string, [input, beginName, sizeName]: string[]): void {
    const begin = this.intValues(beginName!);
    const size = this.intValues(sizeName!);
    const ends = begin.map((start, axis) => (size[axis] === -1 ? INT64_MAX : BigInt(start + size[axis]!)));
    this.emit("Slice", [input!, this.int64(begin), this.int64(ends), this.int64(begin.map((_, axis) => axis))], [name]);
  }

  private stridedSlice(name: string, [input, beginName, endName, stridesName]: string[], attr: Record<string, TfAttr>): void {
    if (Number(attr.ellipsis_mask?.i ?? 0) !== 0 || Number(attr.new_axis_mask?.i ?? 0) !== 0) throw new Error(`${name}: StridedSlice with ellipsis or new axes is not supported`);
    const [beginMask, endMask, shrinkMask] = ["begin_mask", "end_mask", "shrink_axis_mask"].map((key) => Number(attr[key]?.i ?? 0));
    const begin = this.intValues(beginName!);
    const end = this.intValues(endName!);
    const strides = this.intValues(stridesName!);
    const starts: bigint[] = [];
    const ends: bigint[] = [];
    const steps: bigint[] = [];
    const shrunk: number[] = [];
    begin.forEach((first, axis) => {
      const bit = 1 << axis;
      const step = strides[axis]!;
      if (shrinkMask! & bit) {
        starts.push(BigInt(first));
        // Keeps exactly one element; begin -1 is the last element, so its end is "to the end".
        ends.push(first === -1 ? INT64_MAX : BigInt(first + 1));
        steps.push(1n);
        shrunk.push(axis);
      } else {
        starts.push(beginMask! & bit ? (step > 0 ? 0n : INT64_MAX) : BigInt(first));
        ends.push(endMask! & bit ? (step > 0 ? INT64_MAX : INT64_MIN) : BigInt(end[axis]!));
        steps.push(BigInt(step));
      }
    });
    const axes = this.int64(begin.map((_, axis) => axis));
    const sliced = this.emit("Slice", [input!, this.int64(starts), this.int64(ends), axes, this.int64(steps)], shrunk.length > 0 ? undefined : [name]);
    if (shrunk.length > 0) this.emit("Squeeze", [sliced, this.int64(shrunk)], [name]);
  }

  private splitV(name: string, [input, sizesName, axisName]: string[], attr: Record<string, TfAttr>): void {
    const sizes = this.intValues(sizesName!);
    if (sizes.includes(-1)) throw new Error(`${name}: SplitV with an inferred size (-1) is not supported`);
    const count = Number(attr.num_split?.i ?? sizes.length);
    const outputs = Array.from({ length: count }, (_, index) => (index === 0 ? name : `${name}:${index}`));
    this.emit("Split", [input!, this.int64(sizes)], outputs, { axis: this.intValue(axisName!) });
  }

  /** A 1x1, stride-1 NHWC convolution is a matrix product over the channel axis. */
  private pointwiseKernel(node: TfNode, kernelName: string): string {
    const kernel = this.constants.get(kernelName);
    const attr = node.attr ?? {};
    const unit = (key: string) => (attr[key]?.list?.i ?? [1, 1, 1, 1]).every((value) => Number(value) === 1);
    const format = attr.data_format ? decodeString(attr.data_format) : "NHWC";
    if (kernel?.shape.length !== 4 || kernel.shape[0] !== 1 || kernel.shape[1] !== 1 || !unit("strides") || !unit("dilations") || format !== "NHWC") {
      throw new Error(`${node.name}: only 1x1, stride-1 NHWC Conv2D with a constant kernel is supported`);
    }
    const name = `${kernelName}/as_matrix`;
    this.initializers.push(tensorProto(name, { ...kernel, shape: kernel.shape.slice(2) }));
    return name;
  }

  private swapLastTwo(input: string): string {
    const rank = this.ranks.get(input);
    if (rank === undefined) throw new Error(`${input}: rank unknown, cannot transpose for BatchMatMul`);
    const perm = Array.from({ length: rank }, (_, axis) => axis);
    [perm[rank - 2], perm[rank - 1]] = [perm[rank - 1]!, perm[rank - 2]!];
    return this.emit("Transpose", [input], undefined, { perm });
  }

  private intValues(name: string): number[] {
    const constant = this.constants.get(name);
    if (constant?.dtype !== "int64") throw new Error(`${name}: expected a constant integer tensor`);
    return Array.from(constant.values as BigInt64Array, Number);
  }

  private intValue(name: string): number {
    const values = this.intValues(name);
    if (values.length !== 1) throw new Error(`${name}: expected one integer, got ${values.length}`);
    return values[0]!;
  }

  private int64(values: (number | bigint)[]): string {
    const name = `const_${this.fresh++}`;
    this.initializers.push(tensorProto(name, { dtype: "int64", shape: [values.length], values: BigInt64Array.from(values, BigInt) }));
    return name;
  }

  private scalar(tfType: string | number | undefined, value: number): string {
    const name = `const_${this.fresh++}`;
    const values = onnxType(tfType) === onnx.TensorProto.DataType.FLOAT ? Float32Array.of(value) : BigInt64Array.of(BigInt(value));
    this.initializers.push(tensorProto(name, { dtype: values instanceof Float32Array ? "float32" : "int64", shape: [], values }));
    return name;
  }

  private emit(opType: string, inputs: string[], outputs?: string[], attributes: Record<string, number | number[]> = {}): string {
    const names = outputs ?? [`${opType}_${this.fresh++}`];
    for (const input of inputs) {
      const constant = this.constants.get(input);
      if (constant && !this.materialised.has(input)) {
        this.materialised.add(input);
        this.initializers.push(tensorProto(input, constant));
      }
    }
    const attribute = Object.entries(attributes).map(([name, value]) =>
      Array.isArray(value) ? { name, type: onnx.AttributeProto.AttributeType.INTS, ints: value } : { name, type: onnx.AttributeProto.AttributeType.INT, i: value },
    );
    this.nodes.push({ opType, input: inputs, output: names, name: `${names[0]}/${opType}`, attribute });
    return names[0]!;
  }
}

function tensorProto(name: string, constant: Constant): onnxProto.onnx.ITensorProto {
  const { buffer, byteOffset, byteLength } = constant.values;
  return {
    name,
    dims: constant.shape,
    dataType: constant.dtype === "float32" ? onnx.TensorProto.DataType.FLOAT : onnx.TensorProto.DataType.INT64,
    rawData: new Uint8Array(buffer, byteOffset, byteLength),
  };
}

function onnxType(tfType: string | number | undefined): number {
  if (tfType !== undefined && TF_FLOAT.has(tfType)) return onnx.TensorProto.DataType.FLOAT;
  if (tfType !== undefined && TF_INTEGER.has(tfType)) return onnx.TensorProto.DataType.INT64;
  if (tfType !== undefined && TF_BOOL.has(tfType)) return onnx.TensorProto.DataType.BOOL;
  throw new Error(`TensorFlow dtype ${String(tfType)} is not supported`);
}

/** Names an op output the way ONNX names are kept here: "node" for output 0, "node:k" for the others. */
function tensorName(input: string): string {
  return input.endsWith(":0") ? input.slice(0, -2) : input;
}

/** model.json spells string attributes as base64 text or as a list of byte values. */
function decodeString(attr: TfAttr): string {
  if (attr.s === undefined) return "";
  return (typeof attr.s === "string" ? Buffer.from(attr.s, "base64") : Buffer.from(attr.s)).toString("utf8");
}
