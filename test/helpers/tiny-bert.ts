import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AutoTokenizer } from "@huggingface/transformers";
import onnxProto from "onnx-proto";
import * as ort from "onnxruntime-node";

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

export const TINY_HIDDEN = 32;
const FFN = 64;
const POSITIONS = 512;
const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const WORDS =
  "the a to of and my pod pods keep restart restarting deploy deployment log logs kubernetes cluster database query sql invoice pay payment email send write read file files error crash why how what does fix debug weather forecast rain".split(
    " ",
  );
const LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789".split("");
const VOCAB = [...SPECIAL, ...WORDS, ...LETTERS, ...LETTERS.map((letter) => `##${letter}`), ".", ",", "?", "!", "-"];

export type TinyBertHead = "feature-extraction" | "sequence-classification";

/**
 * Writes a tiny random-weight BERT (one layer, 32-d) and a WordPiece tokenizer in the Hugging Face layout
 * transformers.js loads (config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx), so
 * tests run the MiniLM and cross-encoder code paths without the real weights.
 */
export function writeTinyBert(folder: string, head: TinyBertHead, seed = 1): string[] {
  const files = {
    "config.json": JSON.stringify(config(head)),
    "tokenizer.json": JSON.stringify(tokenizerJson()),
    "tokenizer_config.json": JSON.stringify(tokenizerConfig()),
  };
  // Plain fs writes: bench/ uses this module too, outside vitest.
  mkdirSync(path.join(folder, "onnx"), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(folder, name), content);
  writeFileSync(path.join(folder, "onnx", "model_quantized.onnx"), tinyBertOnnx(head, seed));
  return [...Object.keys(files), "onnx/model_quantized.onnx"];
}

/**
 * Runs a model folder's ONNX file with onnxruntime-node directly (no transformers.js model class), on the
 * folder's tokenizer output: the reference the embedder and reranker tests compare against.
 */
export async function runOnnxDirectly(folder: string, texts: string[], pairs?: string[]) {
  const tokenizer = await AutoTokenizer.from_pretrained(folder, { local_files_only: true });
  const inputs = tokenizer(texts, { padding: true, truncation: true, ...(pairs ? { text_pair: pairs } : {}) });
  const session = await ort.InferenceSession.create(path.join(folder, "onnx", "model_quantized.onnx"));
  try {
    const outputs = await session.run({ input_ids: inputs.input_ids.ort_tensor, attention_mask: inputs.attention_mask.ort_tensor, token_type_ids: inputs.token_type_ids!.ort_tensor });
    return { output: outputs[session.outputNames[0]!]!, attentionMask: inputs.attention_mask.data as BigInt64Array, tokenTypeIds: inputs.token_type_ids!.data as BigInt64Array };
  } finally {
    await session.release();
  }
}

function config(head: TinyBertHead) {
  return {
    model_type: "bert",
    architectures: [head === "feature-extraction" ? "BertModel" : "BertForSequenceClassification"],
    hidden_size: TINY_HIDDEN,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: FFN,
    max_position_embeddings: POSITIONS,
    type_vocab_size: 2,
    vocab_size: VOCAB.length,
    ...(head === "sequence-classification" ? { id2label: { 0: "LABEL_0" }, label2id: { LABEL_0: 0 } } : {}),
  };
}

function tokenizerConfig() {
  return { tokenizer_class: "BertTokenizer", do_lower_case: true, model_max_length: POSITIONS, cls_token: "[CLS]", sep_token: "[SEP]", pad_token: "[PAD]", unk_token: "[UNK]", mask_token: "[MASK]" };
}

function tokenizerJson() {
  const id = (token: string) => VOCAB.indexOf(token);
  const special = (token: string, typeId: number) => ({ SpecialToken: { id: token, type_id: typeId } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content) => ({ id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]", 0), { Sequence: { id: "A", type_id: 0 } }, special("[SEP]", 0)],
      pair: [special("[CLS]", 0), { Sequence: { id: "A", type_id: 0 } }, special("[SEP]", 0), { Sequence: { id: "B", type_id: 1 } }, special("[SEP]", 1)],
      special_tokens: Object.fromEntries(["[CLS]", "[SEP]"].map((token) => [token, { id: token, ids: [id(token)], tokens: [token] }])),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: Object.fromEntries(VOCAB.map((token, index) => [token, index])) },
  };
}

/** One post-norm transformer layer over word + position + type embeddings, as BERT has, with seeded weights. */
function tinyBertOnnx(head: TinyBertHead, seed: number): Uint8Array {
  const random = mulberry32(seed);
  const initializers: onnxProto.onnx.ITensorProto[] = [];
  const nodes: onnxProto.onnx.INodeProto[] = [];
  const weight = (name: string, dims: number[], scale = 0.5) => {
    const values = Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, () => (random() * 2 - 1) * scale);
    initializers.push({ name, dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer) });
    return name;
  };
  const constant = (name: string, dims: number[], values: number[], dataType = FLOAT) => {
    const data = dataType === FLOAT ? Float32Array.from(values) : BigInt64Array.from(values, BigInt);
    initializers.push({ name, dims, dataType, rawData: new Uint8Array(data.buffer) });
    return name;
  };
  let counter = 0;
  const node = (opType: string, input: string[], attribute: onnxProto.onnx.IAttributeProto[] = [], output = `${opType.toLowerCase()}_${counter++}`) => {
    nodes.push({ opType, input, output: [output], name: output, attribute });
    return output;
  };
  const layerNorm = (input: string, label: string) =>
    node(
      "LayerNormalization",
      [input, constant(`${label}.gamma`, [TINY_HIDDEN], new Array(TINY_HIDDEN).fill(1)), constant(`${label}.beta`, [TINY_HIDDEN], new Array(TINY_HIDDEN).fill(0))],
      [
        { name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: -1 },
        { name: "epsilon", type: onnx.AttributeProto.AttributeType.FLOAT, f: 1e-12 },
      ],
    );
  const dense = (input: string, label: string, from: number, to: number) => node("Add", [node("MatMul", [input, weight(`${label}.weight`, [from, to])]), weight(`${label}.bias`, [to], 0.1)]);

  const sequence = node("Gather", [node("Shape", ["input_ids"]), constant("one", [], [1], INT64)], [{ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 0 }]);
  const positions = node("Range", [constant("zero", [], [0], INT64), sequence, "one"]);
  const embedded = node("Add", [
    node("Add", [node("Gather", [weight("word_embeddings", [VOCAB.length, TINY_HIDDEN]), "input_ids"]), node("Gather", [weight("position_embeddings", [POSITIONS, TINY_HIDDEN], 0.1), positions])]),
    node("Gather", [weight("token_type_embeddings", [2, TINY_HIDDEN], 0.1), "token_type_ids"]),
  ]);
  const hidden = layerNorm(embedded, "embeddings.norm");

  // Padding positions get a large negative attention bias, as BERT's extended attention mask does.
  const maskFloat = node("Cast", ["attention_mask"], [{ name: "to", type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }]);
  const bias = node("Unsqueeze", [node("Mul", [node("Sub", [constant("one_f", [], [1]), maskFloat]), constant("neg", [], [-10000])]), constant("axis1", [1], [1], INT64)]);
  const query = dense(hidden, "attention.query", TINY_HIDDEN, TINY_HIDDEN);
  const key = dense(hidden, "attention.key", TINY_HIDDEN, TINY_HIDDEN);
  const value = dense(hidden, "attention.value", TINY_HIDDEN, TINY_HIDDEN);
  const keyT = node("Transpose", [key], [{ name: "perm", type: onnx.AttributeProto.AttributeType.INTS, ints: [0, 2, 1] }]);
  const scores = node("Add", [node("Mul", [node("MatMul", [query, keyT]), constant("scale", [], [1 / Math.sqrt(TINY_HIDDEN)])]), bias]);
  const probabilities = node("Softmax", [scores], [{ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: -1 }]);
  const attended = dense(node("MatMul", [probabilities, value]), "attention.output", TINY_HIDDEN, TINY_HIDDEN);
  const afterAttention = layerNorm(node("Add", [hidden, attended]), "attention.norm");
  const feedForward = dense(node("Relu", [dense(afterAttention, "ffn.in", TINY_HIDDEN, FFN)]), "ffn.out", FFN, TINY_HIDDEN);
  const lastHidden = layerNorm(node("Add", [afterAttention, feedForward]), "output.norm");

  let output: onnxProto.onnx.IValueInfoProto;
  if (head === "feature-extraction") {
    nodes.push({ opType: "Identity", input: [lastHidden], output: ["last_hidden_state"], name: "last_hidden_state" });
    output = valueInfo("last_hidden_state", FLOAT, ["batch", "sequence", TINY_HIDDEN]);
  } else {
    const first = node("Gather", [lastHidden, constant("cls", [], [0], INT64)], [{ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 1 }]);
    const pooled = node("Tanh", [dense(first, "pooler", TINY_HIDDEN, TINY_HIDDEN)]);
    nodes.push({ opType: "Identity", input: [dense(pooled, "classifier", TINY_HIDDEN, 1)], output: ["logits"], name: "logits" });
    output = valueInfo("logits", FLOAT, ["batch", 1]);
  }
  const model = onnx.ModelProto.create({
    irVersion: onnx.Version.IR_VERSION,
    producerName: "skill-router tiny-bert",
    opsetImport: [{ domain: "", version: 18 }],
    graph: {
      name: "tiny-bert",
      node: nodes,
      initializer: initializers,
      input: ["input_ids", "attention_mask", "token_type_ids"].map((name) => valueInfo(name, INT64, ["batch", "sequence"])),
      output: [output],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]): onnxProto.onnx.IValueInfoProto {
  return { name, type: { tensorType: { elemType, shape: { dim: dims.map((dim) => (typeof dim === "number" ? { dimValue: dim } : { dimParam: dim })) } } } };
}

/** A small seeded PRNG: the same seed writes the same weights. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
