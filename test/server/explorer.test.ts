import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_K } from "../../src/contract/limits.js";
import { evaluateFile } from "../../src/eval/evaluate-file.js";
import { DEFAULT_SPLIT, splitCases } from "../../src/eval/split.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { capturedLogs } from "./support.js";

const API_KEY = "explorer-key-0123456789abcdef";
const EXAMPLES = "data/eval/examples.json";
const examples = JSON.parse(readFileSync(EXAMPLES, "utf8")) as { cases: { query: string; expected: string | null }[] };
const onlyInTestHalf = splitCases(examples.cases).test[0]!.query;
const dir = mkdtempSync(path.join(tmpdir(), "explorer-"));
const db = path.join(dir, "router.db");
const logs = capturedLogs();
let server: RunningServer;

beforeAll(async () => {
  await runIndex({ paths: ["data/skills"], db });
  server = await startServer({ db, host: "127.0.0.1", port: 0, apiKey: API_KEY, maxBodyBytes: 64 * 1024, reloadIntervalMs: 0, logger: logs.logger });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${API_KEY}` };

async function postEval(body: unknown, query = "", headers: Record<string, string> = { "content-type": "application/json", ...auth }, url = server.url): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}/eval${query}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

describe("the explorer page", () => {
  it("offers no more skills shown than POST /route accepts (k up to MAX_K)", async () => {
    const html = await (await fetch(`${server.url}/explorer`)).text();
    expect(/<input id="k" type="number" min="1" max="(\d+)"/.exec(html)?.[1]).toBe(String(MAX_K));
  });

  it("is served without the key, under a CSP that runs only its own script and style; its data still needs the key", async () => {
    for (const [asset, type] of [
      ["/explorer", "text/html"],
      ["/explorer/explorer.js", "text/javascript"],
      ["/explorer/explorer.css", "text/css"],
    ] as const) {
      const response = await fetch(`${server.url}${asset}`);
      expect([asset, response.status, response.headers.get("content-type")]).toEqual([asset, 200, `${type}; charset=utf-8`]);
      const policy = response.headers.get("content-security-policy")!;
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain("unsafe");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    }
    const html = await (await fetch(`${server.url}/explorer`)).text();
    expect(html).not.toMatch(/<script>|<style>| style=| on[a-z]+=/);
    expect(html).toContain('<script type="module" src="explorer/explorer.js"></script>');
    // The page holds nothing of the index: no skill name appears in it.
    expect(html).not.toContain("k8s-debug");
    expect((await postEval(examples, "", { "content-type": "application/json" })).json.error.code).toBe("API_KEY_MISSING");
  });

  it("is off, page and eval endpoint, with explorer: false", async () => {
    const off = await startServer({ db, host: "127.0.0.1", port: 0, explorer: false, reloadIntervalMs: 0 });
    try {
      await off.ready;
      const page = await fetch(`${off.url}/explorer`);
      expect([page.status, ((await page.json()) as any).error.code]).toEqual([404, "ROUTE_NOT_FOUND"]);
      const run = await postEval(examples, "", { "content-type": "application/json" }, off.url);
      expect([run.status, run.json.error.code]).toEqual([404, "ROUTE_NOT_FOUND"]);
      const spec = (await (await fetch(`${off.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(spec.paths)).not.toContain("/eval");
    } finally {
      await off.close();
    }
  });
});

describe("POST /eval", () => {
  it("measures the cases with the live index exactly as router eval does, and adds the confusions and reliability bins", async () => {
    const { status, json } = await postEval(readFileSync(EXAMPLES, "utf8"), "?split=all");
    expect(status).toBe(200);
    const cli = await evaluateFile({ file: EXAMPLES, db, fallbackDb: db, cacheDir: dir, split: "all", splitOptions: DEFAULT_SPLIT });
    const { latency_ms: _served, ...served } = json.metrics;
    const { latency_ms: _measured, ...measured } = cli.metrics;
    expect(served).toEqual(measured);
    expect([json.split, json.set_cases, json.cases.length, json.index_versions]).toEqual(["all", examples.cases.length, examples.cases.length, [1]]);

    const wrong = json.cases.filter((item: any) => item.answered !== item.expected);
    expect(json.confusion.reduce((sum: number, pair: any) => sum + pair.count, 0)).toBe(wrong.length);
    const counts = json.confusion.map((pair: any) => pair.count);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    for (const pair of json.confusion) {
      expect(pair.expected).not.toBe(pair.answered);
      for (const query of pair.queries) expect(wrong.find((item: any) => item.query === query)).toMatchObject({ expected: pair.expected, answered: pair.answered });
    }

    expect(json.reliability).toHaveLength(10);
    expect(json.reliability.reduce((sum: number, bin: any) => sum + bin.cases, 0)).toBe(examples.cases.length);
    for (const bin of json.reliability) {
      if (bin.cases === 0) expect([bin.confidence, bin.accuracy]).toEqual([null, null]);
      else expect(bin.confidence).toBeGreaterThanOrEqual(bin.low);
    }
    // The same bins the ECE is computed over: their weighted gaps add up to it.
    const ece = json.reliability.reduce((sum: number, bin: any) => sum + (bin.cases > 0 ? (bin.cases * Math.abs(bin.confidence - bin.accuracy)) / examples.cases.length : 0), 0);
    expect(ece).toBeCloseTo(json.metrics.ece, 10);
    expect(logs.lines().find((line) => line.event === "eval")).toMatchObject({ split: "all", cases: examples.cases.length });
  });

  it("routes the test half by default, as router eval does", async () => {
    const { json } = await postEval(examples);
    const cli = await evaluateFile({ file: EXAMPLES, db, fallbackDb: db, cacheDir: dir, splitOptions: DEFAULT_SPLIT });
    expect([json.split, json.metrics.cases, json.metrics.top1]).toEqual(["test", cli.metrics.cases, cli.metrics.top1]);
  });

  it.each([
    ["a body that is not JSON", "{not json", "", 400, "MALFORMED_JSON", /JSON/],
    ["a trigger-eval array", [{ query: "q", should_trigger: true }], "", 400, "INVALID_REQUEST", /object/],
    ["an object without cases", { name: "x" }, "", 400, "INVALID_REQUEST", /The request body is not an eval set: cases/],
    ["an empty query", { cases: [{ query: " ", expected: null }] }, "?split=all", 400, "INVALID_REQUEST", /cases\.0\.query: a case's query is empty/],
    ["a skill the index lacks", { cases: [{ query: "deploy it", expected: "helm-charts" }] }, "?split=all", 400, "UNKNOWN_SKILLS", /helm-charts/],
    ["an unknown split", examples, "?split=half", 400, "INVALID_REQUEST", /split/],
    ["a split with no case", { cases: [{ query: onlyInTestHalf, expected: null }] }, "?split=train", 400, "INVALID_REQUEST", /no cases in the train split/],
    ["more cases than one request routes", { cases: Array.from({ length: 501 }, (_, n) => ({ query: `question ${n}`, expected: null })) }, "?split=all", 400, "TOO_MANY_CASES", /at most 500/],
    [
      "a body over the size limit",
      { cases: Array.from({ length: 400 }, (_, n) => ({ query: `a long question number ${n} `.repeat(8), expected: null })) },
      "?split=all",
      413,
      "PAYLOAD_TOO_LARGE",
      /larger/,
    ],
  ])("%s", async (_label, body, query, status, code, message) => {
    const reply = await postEval(body, query);
    expect([reply.status, reply.json.error.code]).toEqual([status, code]);
    expect(reply.json.error.message).toMatch(message);
  });

  it("refuses another content type with 415", async () => {
    const reply = await postEval(JSON.stringify(examples), "", { "content-type": "text/plain", ...auth });
    expect([reply.status, reply.json.error.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });

  it("stops routing when the request runs out of time, answering 503 REQUEST_TIMEOUT, and the server carries on", async () => {
    const hurried = await startServer({ db, host: "127.0.0.1", port: 0, requestTimeoutMs: 100, reloadIntervalMs: 0 });
    try {
      await hurried.ready;
      const cases = Array.from({ length: 500 }, (_, n) => ({ query: `my pod number ${n} keeps restarting`, expected: "k8s-debug" }));
      const reply = await postEval({ cases }, "?split=all", { "content-type": "application/json" }, hurried.url);
      expect([reply.status, reply.json.error.code]).toEqual([503, "REQUEST_TIMEOUT"]);
      const after = await postEval({ cases: cases.slice(0, 2) }, "?split=all", { "content-type": "application/json" }, hurried.url);
      expect([after.status, after.json.metrics.cases]).toEqual([200, 2]);
    } finally {
      await hurried.close();
    }
  });
});
