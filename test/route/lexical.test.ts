import { describe, expect, it } from "vitest";
import { analyseText } from "../../src/text/analyse-text.js";
import { keywordMatcher } from "../../src/route/keyword-matcher.js";
import type { SkillEntry } from "../../src/route/route-model.js";

describe("analyseText", () => {
  it("stems, drops stop words, and keeps identifiers whole and split", () => {
    expect(analyseText("Why does my pod keep restarting?")).toEqual(["pod", "keep", "restart"]);
    expect(analyseText("get_current_weather")).toEqual(["getcurrentweath", "get", "current", "weather"]);
    expect(analyseText("CrashLoopBackOff")).toEqual(expect.arrayContaining(["crashloopbackoff", "crash", "loop"]));
    expect(analyseText("crashloopbackoff")).toContain("crashloopbackoff");
    expect(analyseText("")).toEqual([]);
  });
});

const skill = (name: string, keywords: string[], phrases: string[]): SkillEntry => ({
  id: name,
  name,
  kind: "skill",
  description: "",
  bodyStart: "",
  tokens: 0,
  descriptionRow: -1,
  queryRows: [],
  negativeRows: [],
  manifest: { queries: ["x"], keywords, phrases, negatives: [], negative_constraint: "", category: "" },
  heuristicManifest: false,
});

describe("keywordMatcher", () => {
  const matcher = keywordMatcher({ skills: [skill("k8s", ["kubectl", "CrashLoopBackOff", "pod eviction"], ["pod keeps restarting"]), skill("git", ["commit"], ["write a commit message"])] });

  it("hits a keyword when all its terms are in the query, whatever the form", () => {
    const found = matcher.match(analyseText("kubectl says crashloopbackoff"));
    expect(found.get(0)).toEqual({ keywords: ["kubectl", "CrashLoopBackOff"], phrases: [] });
    expect(found.has(1)).toBe(false);
  });

  it("needs every content word of a phrase, in any order and inflection", () => {
    expect(matcher.match(analyseText("my pod restarts and keeps going")).get(0)?.phrases).toEqual(["pod keeps restarting"]);
    expect(matcher.match(analyseText("my pod is fine")).get(0)).toBeUndefined();
    expect(matcher.match(analyseText("please write the message for this commit")).get(1)).toEqual({ keywords: ["commit"], phrases: ["write a commit message"] });
  });
});
