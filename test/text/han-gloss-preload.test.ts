import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { glossHan, preloadHanGlosses } from "../../src/text/han-gloss.js";

describe("preloadHanGlosses", () => {
  it("reads the table while other work keeps getting turns of the event loop, and glossHan then uses it", async () => {
    let turns = 0;
    let loaded = false;
    const preload = preloadHanGlosses().then(() => (loaded = true));
    // Other work (a server's requests) keeps getting turns while the table is read.
    while (!loaded) {
      await nextTurn();
      turns++;
    }
    await preload;
    expect(turns).toBeGreaterThan(10);
    expect(glossHan("帮我重构这个 React 组件")).toContain("refactoring");
  });
});
