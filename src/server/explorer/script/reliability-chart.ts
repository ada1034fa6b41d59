import type { EvalRunResponse } from "../eval-schemas.js";
import { fixed, percent } from "./format.js";

type ReliabilityBin = EvalRunResponse["reliability"][number];

const NS = "http://www.w3.org/2000/svg";

/** Draws the reliability diagram: per bin of confidence, how often the best skill was right, against the bin's mean confidence. */
export function renderReliability(svg: SVGSVGElement, bins: ReliabilityBin[]): void {
  svg.replaceChildren();
  const shape = (tag: string, attributes: Record<string, string | number>, text?: string) => {
    const node = document.createElementNS(NS, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  const left = 36;
  const top = 18;
  const size = 240;
  const x = (value: number) => left + value * size;
  const y = (value: number) => top + (1 - value) * size;
  for (const bin of bins) {
    if (!bin.cases || bin.accuracy === null || bin.confidence === null) continue;
    const width = (bin.high - bin.low) * size - 2;
    shape("rect", { class: "bin", x: x(bin.low) + 1, y: y(bin.accuracy), width, height: bin.accuracy * size }).append(
      Object.assign(document.createElementNS(NS, "title"), { textContent: `${bin.cases} cases, confidence ${fixed(bin.confidence)}, right ${percent(bin.accuracy)}` }),
    );
    // The bin's mean confidence: the distance from the bar's top to this tick is what calibration error measures.
    shape("line", { class: "expected", x1: x(bin.low) + 1, y1: y(bin.confidence), x2: x(bin.low) + 1 + width, y2: y(bin.confidence) });
    shape("text", { x: x((bin.low + bin.high) / 2), y: y(bin.accuracy) - 3, "text-anchor": "middle" }, String(bin.cases));
  }
  shape("line", { class: "diagonal", x1: x(0), y1: y(0), x2: x(1), y2: y(1) });
  shape("line", { class: "axis", x1: x(0), y1: y(0), x2: x(1), y2: y(0) });
  shape("line", { class: "axis", x1: x(0), y1: y(0), x2: x(0), y2: y(1) });
  for (const tick of [0, 0.5, 1]) {
    shape("text", { x: x(tick), y: y(0) + 14, "text-anchor": "middle" }, String(tick));
    shape("text", { x: x(0) - 6, y: y(tick) + 3, "text-anchor": "end" }, String(tick));
  }
  shape("text", { x: x(0.5), y: y(0) + 30, "text-anchor": "middle" }, "confidence of the best skill");
  shape("text", { x: 10, y: y(0.5), "text-anchor": "middle", transform: `rotate(-90 10 ${y(0.5)})` }, "share right");
}
