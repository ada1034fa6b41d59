import { describe, expect, it } from "vitest";
import { matchedTerms } from "../../src/contract/matched-terms.js";

describe("matchedTerms", () => {
  it("names a word once, though it is both a keyword and a phrase, or listed with its plural", () => {
    const matched = { keywords: ["review", "sql", "query", "queries", "box", "boxes", "deseq2", "tests"], phrases: ["deseq2", "sql queries"] };
    expect(matchedTerms({ matched })).toEqual(["review", "sql", "query", "box", "deseq2", "tests", "sql queries"]);
  });
});
