import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_CALIBRATION_SKILLS } from "../../src/calibrate/calibrate-evidence.js";
import { EVERYDAY_REQUESTS } from "../../src/calibrate/everyday-requests.js";
import { DEFAULT_SETTINGS, SETTINGS } from "../../src/config/settings.js";
import { DEFAULT_K, MAX_CONTEXT_MESSAGES, MAX_K, MAX_QUERY_CHARS, MAX_SKILL_NAME_CHARS } from "../../src/contract/limits.js";
import type { RouteResult } from "../../src/contract/route.js";
import { LLM_DEFAULTS } from "../../src/expand/llm-settings.js";
import { DEFAULT_CONTEXT_CHARS } from "../../src/hooks/skill-context.js";
import { findSkillText } from "../../src/mcp/tool-text.js";
import { createRouter, type Router } from "../../src/route/router.js";
import { MAX_EVAL_CASES } from "../../src/contract/limits.js";
import {
  MAX_FRONTMATTER_BYTES,
  MAX_JSON_FILE_BYTES,
  MAX_MANIFEST_FILE_BYTES,
  MAX_NESTING_DEPTH,
  MAX_SKILL_FILE_BYTES,
  MAX_TOOL_DEFINITION_BYTES,
  MAX_ZIP_ENTRIES,
  MAX_ZIP_FILE_BYTES,
  MAX_ZIP_TOTAL_UNCOMPRESSED_BYTES,
} from "../../src/skills/limits.js";
import { COMPATIBILITY_MAX, SKILL_DESCRIPTION_MAX, SKILL_NAME_MAX } from "../../src/skills/validate.js";
import { runCli } from "../helpers/cli.js";
import { headingAnchors, read, USER_DOCS } from "./markdown.js";

// The figures and constants the README and docs/ quote, checked against the code that defines them, so that they
// cannot drift again. Each claim is a file, a pattern whose groups capture the quoted values, and the true values.
// Every match of a pattern must hold them, and every pattern must match at least once: rewording a sentence fails
// here (update its pattern), instead of letting the sentence escape the check. docs/README.md explains the choice.

const KiB = 1024;
const MiB = 1024 * 1024;
const defaults = JSON.parse(readFileSync("src/route/default-params.json", "utf8")) as { threshold: number; minMargin: number; heuristicThreshold: number };

/** A constant the code does not export, read from its source file: `const NAME = 1_000;`. */
function sourceConstant(file: string, name: string): number {
  const found = new RegExp(`\\bconst ${name} = ([\\d_.]+);`).exec(readFileSync(file, "utf8"));
  if (!found) throw new Error(`${file} no longer defines ${name} as a number: update this test`);
  return Number(found[1]!.replace(/_/g, ""));
}

/** A byte size written `const NAME = n * 1024 * 1024;` in a source file, in MB. */
function sourceMegabytes(file: string, name: string): number {
  const found = new RegExp(`\\bconst ${name} = (\\d+) \\* 1024 \\* 1024;`).exec(readFileSync(file, "utf8"));
  if (!found) throw new Error(`${file} no longer defines ${name} as n * 1024 * 1024: update this test`);
  return Number(found[1]);
}

/** A field of the object literal `const NAME = { a: 1, ... }` in a source file. */
function sourceField(file: string, name: string, field: string): number {
  const object = new RegExp(`\\bconst ${name} = \\{([^}]*)\\}`).exec(readFileSync(file, "utf8"));
  const value = object && new RegExp(`\\b${field}: ([\\d_.]+)`).exec(object[1]!);
  if (!value) throw new Error(`${file} no longer defines ${name}.${field} as a number: update this test`);
  return Number(value[1]!.replace(/_/g, ""));
}

const CANDIDATES = sourceConstant("src/route/router.ts", "DEFAULT_CANDIDATES");
const weight = (field: string) => sourceField("src/indexer/lexical-tables.ts", "FIELD_WEIGHTS", field);

/** What the example skills route and measure to now; filled in beforeAll. */
const live = {
  tokens: new Map<string, number>(),
  evalCases: 0,
  inScope: 0,
  noSkill: 0,
  testCases: 0,
  trainCases: 0,
  heldOut: ["", "", ""],
  fitted: ["", "", ""],
};

interface Claim {
  file: string;
  pattern: RegExp;
  /** The true values, one per capture group; a function when they are measured in beforeAll. */
  values: () => (number | string)[];
}

const percent = (share: number) => (share * 100).toFixed(1);

const CLAIMS: Claim[] = [
  // Limits of the route contract (src/contract/limits.ts).
  {
    file: "docs/operations.md",
    pattern: /query \| ([\d,]+) characters; `context` at most (\d+) messages of ([\d,]+); a skill name at most (\d+)/g,
    values: () => [MAX_QUERY_CHARS, MAX_CONTEXT_MESSAGES, MAX_QUERY_CHARS, MAX_SKILL_NAME_CHARS],
  },
  { file: "docs/operations.md", pattern: /`k` from 1 to (\d+), default (\d+)/g, values: () => [MAX_K, DEFAULT_K] },
  { file: "docs/operations.md", pattern: /or over ([\d,]+) characters is answered 400/g, values: () => [MAX_QUERY_CHARS] },
  { file: "docs/integrations.md", pattern: /`query` \(1 to ([\d,]+) characters\), `k` \(1 to (\d+), default (\d+)\)/g, values: () => [MAX_QUERY_CHARS, MAX_K, DEFAULT_K] },
  { file: "docs/integrations.md", pattern: /A prompt over ([\d,]+) characters is routed by its beginning/g, values: () => [MAX_QUERY_CHARS] },
  { file: "docs/integrations.md", pattern: /sends its last (\d+) messages/g, values: () => [MAX_CONTEXT_MESSAGES] },
  {
    file: "docs/routing.md",
    pattern: /up to (\d+) earlier messages of `context` are blended in with a weight of\s+([\d.]+)/g,
    values: () => [MAX_CONTEXT_MESSAGES, sourceConstant("src/route/query.ts", "CONTEXT_WEIGHT")],
  },
  // The decision (src/route/default-params.json) and the tie-break (src/route/tie-break.ts).
  { file: "docs/routing.md", pattern: /The default threshold is ([\d.]+) with a margin of ([\d.]+)/g, values: () => [defaults.threshold, defaults.minMargin] },
  { file: "docs/routing.md", pattern: /threshold of their\s+own, ([\d.]+) by default/g, values: () => [defaults.heuristicThreshold] },
  {
    file: "docs/routing.md",
    pattern: /within ([\d.]+) of the best \(at most (\d+)\)/g,
    values: () => [sourceConstant("src/route/tie-break.ts", "TIE_WITHIN"), sourceConstant("src/route/tie-break.ts", "TIE_GROUP")],
  },
  {
    file: "docs/models.md",
    pattern: /within ([\d.]+) of the best \(at most (\d+)\)/g,
    values: () => [sourceConstant("src/route/tie-break.ts", "TIE_WITHIN"), sourceConstant("src/route/tie-break.ts", "TIE_GROUP")],
  },
  // Retrieval and evidence (src/route/, src/calibrate/).
  { file: "docs/routing.md", pattern: /dense centroid top (\d+) \+ BM25F top (\d+) \+ keyword hits top (\d+)/g, values: () => [CANDIDATES, CANDIDATES, CANDIDATES] },
  { file: "docs/routing.md", pattern: /Each retriever contributes its best (\d+) skills/g, values: () => [CANDIDATES] },
  { file: "docs/routing.md", pattern: /above ([\d,]+) skills, sign-bit codes/g, values: () => [sourceConstant("src/route/dense-retriever.ts", "EXACT_SCAN_LIMIT")] },
  {
    file: "docs/routing.md",
    pattern:
      /name \(weight ([\d.]+)\), keywords \(([\d.]+)\), phrases \(([\d.]+)\), queries \(([\d.]+)\), description \(([\d.]+)\) and the first ([\d,]+) characters of a skill's instructions \(([\d.]+)\)/g,
    values: () => [
      weight("name"),
      weight("keywords"),
      weight("phrases"),
      weight("queries"),
      weight("description"),
      sourceConstant("src/indexer/build-routing-data.ts", "BODY_START_CHARS"),
      weight("body"),
    ],
  },
  {
    file: "docs/routing.md",
    pattern: /up to ([\d,]+) skills\s+\(and\s+up to ([\d,]+) more in other scripts\)/g,
    values: () => [sourceConstant("src/calibrate/calibrate-evidence.ts", "MAX_SAMPLES"), sourceConstant("src/calibrate/calibrate-evidence.ts", "MAX_SAMPLES")],
  },
  { file: "docs/routing.md", pattern: /the ([\d.]+) quantile of their BM25/g, values: () => [sourceConstant("src/calibrate/calibrate-evidence.ts", "BM25_QUANTILE")] },
  { file: "docs/routing.md", pattern: /\(when there are at least (\d+) of them\)/g, values: () => [sourceConstant("src/calibrate/calibrate-evidence.ts", "MIN_SCRIPT_SAMPLES")] },
  { file: "docs/routing.md", pattern: /the share of (\d+) everyday chat requests/g, values: () => [EVERYDAY_REQUESTS.length] },
  { file: "docs/routing.md", pattern: /An index of fewer than (\d+)\s+skills is not measured/g, values: () => [MIN_CALIBRATION_SKILLS] },
  { file: "docs/models.md", pattern: /keeping recently read skills in a (\d+) MB cache/g, values: () => [sourceMegabytes("src/route/route-model.ts", "VECTOR_CACHE_BYTES")] },
  { file: "docs/operations.md", pattern: /hand the event loop back every (\d+) ms/g, values: () => [sourceConstant("src/route/yield-to-requests.ts", "SLICE_MS")] },
  { file: "docs/operations.md", pattern: /answers of up to (\d+) MB per index version/g, values: () => [sourceMegabytes("src/route/result-cache.ts", "RESULT_CACHE_BYTES")] },
  { file: "docs/models.md", pattern: /LRU cache of ([\d,]+) query\s+vectors/g, values: () => [sourceConstant("src/models/query-encoder.ts", "DEFAULT_CACHE_SIZE")] },
  { file: "docs/operations.md", pattern: /LRU cache of ([\d,]+) query\s+vectors/g, values: () => [sourceConstant("src/models/query-encoder.ts", "DEFAULT_CACHE_SIZE")] },
  // Server settings (src/config/settings.ts).
  { file: "docs/operations.md", pattern: /request body \| ([\d.]+) MiB \(`maxBodyBytes`\)/g, values: () => [DEFAULT_SETTINGS.maxBodyBytes / MiB] },
  { file: "docs/operations.md", pattern: /time per request \| ([\d.]+) s \(`requestTimeoutMs`\)/g, values: () => [DEFAULT_SETTINGS.requestTimeoutMs / 1000] },
  { file: "docs/operations.md", pattern: /\| ([\d,]+) per `POST \/eval`/g, values: () => [MAX_EVAL_CASES] },
  { file: "docs/evaluation.md", pattern: /One request routes at most (\d+) cases/g, values: () => [MAX_EVAL_CASES] },
  // Clients and the hook (src/client/, src/cli/hook-command.ts, src/hooks/).
  { file: "docs/integrations.md", pattern: /\| `timeoutMs` \| (\d+) \|/g, values: () => [sourceConstant("src/client/router-client.ts", "DEFAULT_TIMEOUT_MS")] },
  { file: "docs/integrations.md", pattern: /\| `retries` \| (\d+) \|/g, values: () => [sourceConstant("src/client/router-client.ts", "DEFAULT_RETRIES")] },
  { file: "docs/integrations.md", pattern: /\| `--timeout <ms>` \| (\d+) \|/g, values: () => [sourceConstant("src/cli/hook-command.ts", "DEFAULT_TIMEOUT_MS")] },
  { file: "docs/integrations.md", pattern: /\| `--max-chars <n>` \| (\d+) \|/g, values: () => [DEFAULT_CONTEXT_CHARS] },
  // LLM expansion (src/expand/llm-settings.ts).
  { file: "docs/manifests.md", pattern: /`ROUTER_LLM_CONCURRENCY` \| (\d+) requests in flight/g, values: () => [LLM_DEFAULTS.concurrency] },
  { file: "docs/manifests.md", pattern: /`ROUTER_LLM_TIMEOUT_MS` \| (\d+) per request/g, values: () => [LLM_DEFAULTS.timeoutMs] },
  { file: "docs/manifests.md", pattern: /`ROUTER_LLM_RETRIES` \| (\d+) more attempts/g, values: () => [LLM_DEFAULTS.retries] },
  { file: "docs/manifests.md", pattern: /file over (\d+) KiB, is an index warning/g, values: () => [MAX_MANIFEST_FILE_BYTES / KiB] },
  // Skill files (src/skills/limits.ts, src/skills/validate.ts).
  {
    file: "docs/formats.md",
    pattern:
      /a `SKILL\.md` over (\d+) MiB, frontmatter over (\d+) KiB, a tool file over (\d+) MiB or one tool whose definition is over\s+(\d+) MiB, JSON or frontmatter nested deeper than (\d+) levels/g,
    values: () => [MAX_SKILL_FILE_BYTES / MiB, MAX_FRONTMATTER_BYTES / KiB, MAX_JSON_FILE_BYTES / MiB, MAX_TOOL_DEFINITION_BYTES / MiB, MAX_NESTING_DEPTH],
  },
  {
    file: "docs/formats.md",
    pattern: /\((\d+) MiB on disk, ([\d,]+) entries, (\d+) MiB uncompressed\)/g,
    values: () => [MAX_ZIP_FILE_BYTES / MiB, MAX_ZIP_ENTRIES, MAX_ZIP_TOTAL_UNCOMPRESSED_BYTES / MiB],
  },
  {
    file: "docs/formats.md",
    pattern: /`name` is required, at most (\d+) characters of lowercase letters, digits\s+and single hyphens; `description` is required, at most ([\d,]+) characters/g,
    values: () => [SKILL_NAME_MAX, SKILL_DESCRIPTION_MAX],
  },
  { file: "docs/formats.md", pattern: /a description over ([\d,]+) characters is kept whole/g, values: () => [SKILL_DESCRIPTION_MAX] },
  { file: "docs/formats.md", pattern: /`compatibility` \(at most (\d+) characters\)/g, values: () => [COMPATIBILITY_MAX] },
  { file: "docs/formats.md", pattern: /from (\d+) tokens \(`release-notes`\) to (\d+) \(`k8s-debug`\)/g, values: () => [live.tokens.get("release-notes")!, live.tokens.get("k8s-debug")!] },
  // The example eval set, as `router eval` and `router fit` measure it now.
  ...["README.md", "docs/evaluation.md"].flatMap((file): Claim[] => [
    { file, pattern: /`data\/eval\/examples\.json` labels (\d+) requests/g, values: () => [live.evalCases] },
    { file, pattern: /the held-out half \((\d+) cases\): top-1 ([\d.]+)%, routed ([\d.]+)%, abstained ([\d.]+)%/g, values: () => [live.testCases, ...live.heldOut] },
    { file, pattern: /lowers top-1 to ([\d.]+)%/g, values: () => [live.fitted[0]!] },
  ]),
  { file: "README.md", pattern: /\((\d+) need none\)/g, values: () => [live.noSkill] },
  { file: "README.md", pattern: /(\d+) training cases are few/g, values: () => [live.trainCases] },
  { file: "docs/evaluation.md", pattern: /\((\d+) for one of them, (\d+)\s+that need none/g, values: () => [live.inScope, live.noSkill] },
  { file: "docs/evaluation.md", pattern: /the other half \((\d+) cases\)/g, values: () => [live.trainCases] },
  { file: "docs/evaluation.md", pattern: /^(\d+) cases are few for a fit/gm, values: () => [live.trainCases] },
  { file: "docs/evaluation.md", pattern: /lowers top-1 to [\d.]+% \(routed ([\d.]+)%, abstained ([\d.]+)%\)/g, values: () => [live.fitted[1]!, live.fitted[2]!] },
];

/** The settings tables of docs/operations.md: every default written as a value must be the code's (those that depend on the machine are written in words). */
const SETTING_ROWS = (Object.keys(DEFAULT_SETTINGS) as (keyof typeof DEFAULT_SETTINGS)[]).filter(
  (key) => ["string", "number", "boolean"].includes(typeof DEFAULT_SETTINGS[key]) && !SETTINGS[key].shownDefault,
);

const dir = mkdtempSync(path.join(tmpdir(), "skill-router-doc-figures-"));
const db = path.join(dir, "router.db");
let router: Router;

beforeAll(async () => {
  const indexed = runCli(["index", "data/skills", "--db", db, "-q"]);
  expect(indexed.status, indexed.stderr).toBe(0);
  const skills = JSON.parse(runCli(["skills", "--db", db, "--json"]).stdout) as { name: string; tokens: number }[];
  for (const skill of skills) live.tokens.set(skill.name, skill.tokens);

  const set = JSON.parse(readFileSync("data/eval/examples.json", "utf8")) as { cases: { expected: string | null }[] };
  live.evalCases = set.cases.length;
  live.noSkill = set.cases.filter((item) => item.expected === null).length;
  live.inScope = live.evalCases - live.noSkill;
  const heldOut = evalMetrics(db);
  live.testCases = heldOut.cases;
  live.trainCases = live.evalCases - heldOut.cases;
  live.heldOut = [percent(heldOut.top1), percent(heldOut.routed), percent(heldOut.abstain_recall)];
  const fittedDb = path.join(dir, "fitted.db");
  copyFileSync(db, fittedDb);
  const fit = runCli(["fit", "data/eval/examples.json", "--db", fittedDb, "-q"]);
  expect(fit.status, fit.stderr).toBe(0);
  const fitted = evalMetrics(fittedDb);
  live.fitted = [percent(fitted.top1), percent(fitted.routed), percent(fitted.abstain_recall)];

  router = await createRouter({ db });
});

afterAll(async () => {
  await router?.close();
  rmSync(dir, { recursive: true, force: true });
});

function evalMetrics(file: string): { cases: number; top1: number; routed: number; abstain_recall: number } {
  const run = runCli(["eval", "data/eval/examples.json", "--db", file, "--json", "-q"]);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout).metrics;
}

/** A markdown section: from the heading with this anchor to the next heading of its level or above. */
function sectionText(text: string, anchor: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => /^#+ /.test(line) && headingAnchors(line).has(anchor));
  expect(start, `no heading #${anchor}`).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((line, at) => at > start && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level);
  return lines.slice(start, end === -1 ? undefined : end).join("\n");
}

/** The fenced blocks after a line (the first `count` of them), as text. */
function blocksAfter(file: string, marker: string, count = 1): string[] {
  const text = read(file);
  const at = text.indexOf(marker);
  expect(at, `${file} no longer holds "${marker}"`).toBeGreaterThanOrEqual(0);
  return [...text.slice(at).matchAll(/```[a-z]*\n([^]*?)\n```/g)].slice(0, count).map((block) => block[1]!);
}

const blockAfter = (file: string, marker: string): string => blocksAfter(file, marker)[0]!;

describe("figures and constants the docs quote", () => {
  it.each(CLAIMS.map((claim) => [`${claim.file} ${claim.pattern.source.slice(0, 60)}`, claim] as const))("%s", (_, claim) => {
    const matches = [...read(claim.file).matchAll(claim.pattern)];
    expect(matches.length, `${claim.file} no longer says ${claim.pattern}: update the sentence's pattern in this test`).toBeGreaterThan(0);
    const expected = claim.values().map(String);
    for (const match of matches)
      expect(
        match.slice(1).map((value) => value.replace(/,/g, "")),
        `${claim.file}: "${match[0]}"`,
      ).toEqual(expected);
  });

  it("operations.md states every server default as the code has it", () => {
    const text = read("docs/operations.md");
    for (const key of SETTING_ROWS) {
      const row = new RegExp(`^\\| \`${key}\` \\|[^|]*\\|[^|]*\\| \`([^\`]*)\` \\|`, "m").exec(text);
      expect(row, `no row for ${key} with its default in docs/operations.md`).not.toBeNull();
      expect(row![1], key).toBe(String(DEFAULT_SETTINGS[key]));
    }
  });

  it("take every figure of the README's results from the bench/RESULTS.md section it links to", () => {
    const results = read("bench/RESULTS.md");
    let checked = 0;
    for (const [, figures, anchor] of read("README.md").matchAll(/\[([^\]]*\d%[^\]]*)\]\(bench\/RESULTS\.md#([^)]+)\)/g)) {
      const section = sectionText(results, anchor!);
      for (const [figure] of figures!.matchAll(/\d+\.\d%/g)) {
        expect(section, `README.md quotes ${figure} from bench/RESULTS.md#${anchor}`).toMatch(new RegExp(`\\| ${figure!.replace(".", "\\.")} \\|`));
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it("name the default port in every URL of the router", () => {
    let checked = 0;
    for (const file of USER_DOCS) {
      // Other servers' URLs (an LLM's /v1 endpoint) are theirs.
      for (const match of read(file).matchAll(/(?:127\.0\.0\.1|localhost|0\.0\.0\.0):(\d+)(?!\d|\/v1)/g)) {
        expect(Number(match[1]), `${file}: ${match[0]}`).toBe(DEFAULT_SETTINGS.port);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("quote every example skill's token cost as the index counts it", () => {
    const names = [...live.tokens.keys()];
    const namePattern = new RegExp(`(?<![\\w-])(${names.map((name) => name.replace(/[-_]/g, "[-_]")).join("|")})(?![\\w-])`, "g");
    let checked = 0;
    for (const file of USER_DOCS) {
      for (const line of read(file).split("\n")) {
        // A token count belongs to the nearest skill named before it on its line.
        for (const match of line.matchAll(/\+?([\d,]+) tok(?:en)?s\b/g)) {
          const before = [...line.slice(0, match.index).matchAll(namePattern)].pop();
          if (!before) continue;
          expect(Number(match[1]!.replace(/,/g, "")), `${file}: ${before[1]} in "${line.trim().slice(0, 120)}"`).toBe(live.tokens.get(before[1]!));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it("show the README's routing example exactly as `router route` prints it", () => {
    const block = blockAfter("README.md", "## A routing example").split("\n");
    const command = /^\$ router route "(.*)"$/.exec(block[0]!);
    expect(command).not.toBeNull();
    const run = runCli(["route", command![1]!, "--db", db]);
    expect(run.status, run.stderr).toBe(0);
    // Only the time differs from run to run.
    const withoutTime = (lines: string[]) => lines.map((line) => line.replace(/^ {3}\d+\.\d ms, /, "   N ms, "));
    expect(withoutTime(block.slice(1))).toEqual(withoutTime(run.stdout.trimEnd().split("\n")));
  });

  it("show routing.md's JSON answer as `router route --json` answers it", () => {
    const request = JSON.parse(/-d '(\{[^']*\})'/.exec(blockAfter("docs/routing.md", "## Explanations"))![1]!) as { query: string; k: number };
    const shown = JSON.parse(blockAfter("docs/routing.md", "compares this answer")) as RouteResult;
    const run = runCli(["route", request.query, "-k", String(request.k), "--json", "--db", db]);
    expect(run.status, run.stderr).toBe(0);
    const actual = JSON.parse(run.stdout) as RouteResult;
    // A route_id is new with every answer: the doc shows one of the same form.
    expect(shown.route_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect({ ...shown, timing_ms: undefined, route_id: undefined }).toEqual({ ...actual, timing_ms: undefined, route_id: undefined });
    expect(Object.keys(shown.timing_ms).sort()).toEqual(Object.keys(actual.timing_ms).sort());
  });

  it("show the hook's and MCP's answers as the router gives them", async () => {
    const text = read("docs/integrations.md");
    const prompt = JSON.parse(readFileSync("examples/claude-code/prompt.json", "utf8")).prompt as string;
    expect(text).toContain(`for "${prompt}" with the example skills`);
    const injected = await router.route(prompt);
    const best = injected.skills[0]!;
    expect(text).toContain(`skill-router matched this prompt to the skill "${injected.selected[0]}" (confidence ${best.confidence.toFixed(2)})`);

    // MCP's find_skill text: the doc shortens descriptions to "... - ..." and shows the first lines.
    const shorten = (line: string) => line.replace(/(: [^|]*? - )[^|]*\| /, "$1... | ");
    const [mcpInject, mcpNone] = blocksAfter("docs/integrations.md", "`find_skill` answers the model", 2).map((block) => block.split("\n")) as [string[], string[]];
    expect(mcpInject).toEqual(findSkillText(injected).split("\n").slice(0, mcpInject.length).map(shorten));

    const note = /`skill-router hook: no skill injected, (.*?)`\s+for "(.*?)"/.exec(text);
    expect(note).not.toBeNull();
    const none = await router.route(note![2]!);
    const closest = none.skills[0]!;
    expect(note![1]).toBe(`${none.reason!.replace(/_/g, " ")}: in scope ${none.in_scope.toFixed(2)}, threshold ${none.threshold.toFixed(2)}; closest ${closest.name} ${closest.confidence.toFixed(2)}`);
    expect(mcpNone).toEqual(findSkillText(none).split("\n").slice(0, mcpNone.length));
  });
});
