import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { keepRoutedThreshold } from "../../bench/methods/keep-routed-threshold.js";
import { rankByScore } from "../../bench/methods/rank-by-score.js";
import { replaceSections } from "../../bench/results-file.js";
import { tempDir, writeFile } from "../helpers/fixtures.js";

describe("bench parts", () => {
  it("writes its RESULTS.md sections as one block and leaves the others alone", () => {
    const file = writeFile(path.join(tempDir(), "RESULTS.md"), "# Benchmark results\n\n## Models\n\nmodel table\n\n## Scale\n\nold\n\n## Load\n\nload table\n\n## Accuracy\n\nold accuracy\n");
    replaceSections(file, [
      { heading: "## Accuracy", text: "## Accuracy\n\nnew accuracy\n" },
      { heading: "## Scale", text: "## Scale\n\nnew\n" },
      { heading: "## Over HTTP", text: "## Over HTTP\n\nhttp\n" },
    ]);
    expect(readFileSync(file, "utf8")).toBe("# Benchmark results\n\n## Models\n\nmodel table\n\n## Accuracy\n\nnew accuracy\n\n## Scale\n\nnew\n\n## Over HTTP\n\nhttp\n\n## Load\n\nload table\n");
    replaceSections(file, [{ heading: "## Extra", text: "## Extra\n\nappended\n" }]);
    expect(readFileSync(file, "utf8")).toMatch(/## Load\n\nload table\n\n## Extra\n\nappended\n$/);
  });

  it("keeps the asked-for share of training cases routed", () => {
    expect(keepRoutedThreshold([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05], 0.9)).toBe(0.1);
    expect(keepRoutedThreshold([], 0.9)).toBe(0);
  });

  it("ranks allowed skills with a positive score, ties in skill order", () => {
    expect(rankByScore(["a", "b", "c", "d"], [0.5, 0.9, 0.5, 0], undefined)).toEqual({ ranked: ["b", "a", "c"], best: 0.9 });
    expect(rankByScore(["a", "b", "c", "d"], [0.5, 0.9, 0.5, 0], [0, 2, 3])).toEqual({ ranked: ["a", "c"], best: 0.5 });
  });
});
