import { describe, expect, it } from "vitest";
import { glossHan, hanGlossesAvailable } from "../../src/text/han-gloss.js";

describe("glossHan", () => {
  it("is built with the package (npm run build)", () => {
    expect(hanGlossesAvailable()).toBe(true);
  });

  it("reads Chinese words by longest match, keeps other words, and leaves out words of grammar", () => {
    const gloss = glossHan("帮我重构这个 React 组件")!;
    expect(gloss).toContain("refactoring");
    expect(gloss).toContain("React");
    expect(gloss).toMatch(/component/);
    // 个 alone means "individual": a measure word, left out.
    expect(gloss).not.toContain("individual");
  });

  it("is undefined for a text without Chinese characters", () => {
    expect(glossHan("my pod keeps restarting")).toBeUndefined();
    expect(glossHan("")).toBeUndefined();
  });
});
