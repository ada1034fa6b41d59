import { describe, expect, it } from "vitest";
import { sampleCorpus, type CorpusItem } from "../../bench/scale-corpus.js";

const items: CorpusItem[] = [
  { kind: "skill", key: "name:pdf", file: "/skills/pdf/SKILL.md" },
  { kind: "mcp", key: "mcp:@acme/files/read", server: "@acme/files", tool: { name: "read", description: "Read a file." } },
  { kind: "function", key: "name:get_weather", definition: { type: "function", function: { name: "get_weather", description: "Weather now." } } },
];

describe("sampleCorpus", () => {
  it("draws each size as a subset of the next, and goes beyond the corpus with renamed copies of its tools only", () => {
    const two = sampleCorpus(items, 2);
    const seven = sampleCorpus(items, 7);
    expect(seven.slice(0, 2)).toEqual(two);
    expect(new Set(seven.map((item) => item.key)).size).toBe(7);
    expect(seven.filter((item) => item.kind === "skill")).toHaveLength(1);
    const copies = seven.slice(3);
    expect(copies.flatMap((item) => (item.kind === "mcp" ? [item.server] : []))).toEqual(["@acme/files-copy-1", "@acme/files-copy-2"]);
    expect(copies.flatMap((item) => (item.kind === "function" ? [(item.definition["function"] as { name: string }).name] : []))).toEqual(["get_weather_copy_1", "get_weather_copy_2"]);
  });
});
