import type { DatasetFigures } from "./accuracy.js";
import { METHODS, type MethodId } from "./method-catalogue.js";

const PANEL = { width: 300, height: 260, left: 48, right: 12, top: 30, bottom: 40 };
const LEGEND_HEIGHT = 24 * 5 + 8;
const POINT_GAP = 14;
// One colour per method, told apart in print as well as on screen (the letter is drawn on each point too).
const COLOURS: Record<MethodId, string> = { a: "#9e9e9e", b: "#8d6e63", c: "#ffa000", d: "#7cb342", e: "#1e88e5", f: "#8e24aa", g: "#d81b60", h: "#00897b", i: "#3949ab", p: "#546e7a" };

/** Top-1 accuracy (in-scope cases) against p50 latency (log scale), one panel per eval set, one point per method. */
export function accuracyLatencyChart(datasets: DatasetFigures[]): string {
  const points = datasets.flatMap((dataset) => dataset.methods.filter((method) => method.metrics).map((method) => method.metrics!.latency_ms.p50));
  const low = Math.floor(Math.log10(Math.max(0.001, Math.min(...points))));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(...points))));
  const width = PANEL.width * datasets.length;
  const height = PANEL.height + LEGEND_HEIGHT;
  const panels = datasets.map((dataset, index) => panel(dataset, index * PANEL.width, low, high));
  const measured = new Set(datasets.flatMap((dataset) => dataset.methods.filter((method) => method.metrics).map((method) => method.id)));
  const legend = Object.entries(METHODS).map(([id, method], index) => {
    const label = `${method.label}${measured.has(id as MethodId) ? "" : " (not measured)"}`;
    const x = 16 + (index % 2) * (width / 2);
    const y = PANEL.height + 16 + Math.floor(index / 2) * 22;
    return `<circle cx="${x}" cy="${y}" r="7" fill="${COLOURS[id as MethodId]}"/><text x="${x}" y="${y + 4}" class="dot">${id}</text><text x="${x + 14}" y="${y + 4}">${escapeXml(label)}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    "<style>text{fill:#222}.dot{fill:#fff;font-size:9px;font-weight:bold;text-anchor:middle}.axis{fill:#555}.title{font-size:13px;font-weight:bold;text-anchor:middle}</style>",
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...panels,
    ...legend,
    "</svg>",
    "",
  ].join("\n");
}

function panel(dataset: DatasetFigures, offset: number, low: number, high: number): string {
  const plotWidth = PANEL.width - PANEL.left - PANEL.right;
  const plotHeight = PANEL.height - PANEL.top - PANEL.bottom;
  const x = (latency: number) => offset + PANEL.left + ((Math.log10(Math.max(latency, 10 ** low)) - low) / (high - low)) * plotWidth;
  const y = (share: number) => PANEL.top + (1 - share) * plotHeight;
  const parts: string[] = [`<text x="${offset + PANEL.width / 2}" y="18" class="title">${escapeXml(dataset.name)}</text>`];
  for (let tick = 0; tick <= 100; tick += 20) {
    parts.push(`<line x1="${offset + PANEL.left}" x2="${offset + PANEL.left + plotWidth}" y1="${y(tick / 100)}" y2="${y(tick / 100)}" stroke="#e0e0e0"/>`);
    parts.push(`<text x="${offset + PANEL.left - 6}" y="${y(tick / 100) + 4}" text-anchor="end" class="axis">${tick}%</text>`);
  }
  for (let decade = low; decade <= high; decade++) {
    const at = x(10 ** decade);
    parts.push(`<line x1="${at}" x2="${at}" y1="${PANEL.top}" y2="${PANEL.top + plotHeight}" stroke="#e0e0e0"/>`);
    parts.push(`<text x="${at}" y="${PANEL.top + plotHeight + 14}" text-anchor="middle" class="axis">${formatDecade(decade)}</text>`);
  }
  parts.push(`<text x="${offset + PANEL.left + plotWidth / 2}" y="${PANEL.height - 8}" text-anchor="middle" class="axis">p50 latency, ms (log)</text>`);
  parts.push(`<text transform="translate(${offset + 12} ${PANEL.top + plotHeight / 2}) rotate(-90)" text-anchor="middle" class="axis">top-1 accuracy</text>`);
  const drawn: { x: number; y: number }[] = [];
  for (const method of dataset.methods) {
    if (!method.metrics) continue;
    let cx = x(method.metrics.latency_ms.p50);
    const cy = y(method.metrics.top1);
    // A point that would hide an earlier one moves right until both show (the tooltip keeps the exact figures).
    while (drawn.some((point) => Math.hypot(point.x - cx, point.y - cy) < POINT_GAP)) cx += POINT_GAP / 2;
    drawn.push({ x: cx, y: cy });
    parts.push(
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="7" fill="${COLOURS[method.id]}" fill-opacity="0.9"><title>${method.id}) ${escapeXml(METHODS[method.id].label)}: ${(method.metrics.top1 * 100).toFixed(1)}%, p50 ${method.metrics.latency_ms.p50.toFixed(2)} ms</title></circle>`,
    );
    parts.push(`<text x="${cx.toFixed(1)}" y="${(cy + 3).toFixed(1)}" class="dot">${method.id}</text>`);
  }
  return parts.join("\n");
}

function formatDecade(decade: number): string {
  return decade >= 0 ? String(10 ** decade) : (10 ** decade).toFixed(-decade);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
