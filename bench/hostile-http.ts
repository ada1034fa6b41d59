// Hostile HTTP against `router serve` on loopback: 15,000 requests with bad bodies, headers, methods, content
// types, oversized and abandoned bodies, on kept-alive connections; prints what came back as a markdown table.
// Usage: npx tsx bench/hostile-http.ts [requests]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { freePort } from "./free-port.js";
import { runIndex } from "../src/indexer/run-index.js";
import { printable, UNUSUAL_CONTENT_TYPES } from "../test/helpers/hostile-inputs.js";

const REQUESTS = Number(process.argv[2] ?? 15_000);
const CONNECTIONS = 8;
const MAX_BODY = 64 * 1024;
const SKILLS = fileURLToPath(new URL("../data/skills", import.meta.url));
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

interface Hostile {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  chunked: boolean;
  /** Bytes of the body sent before the client gives up, or undefined to send it all. */
  abortAfter: number | undefined;
}

const hostile: fc.Arbitrary<Hostile> = fc.record({
  // Most requests reach POST /route with a JSON type, so the body rules are what the fuzz exercises most.
  method: fc.oneof({ weight: 6, arbitrary: fc.constant("POST") }, { weight: 1, arbitrary: fc.constantFrom("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "PROPFIND") }),
  path: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("/route", "/route?k=1") },
    { weight: 1, arbitrary: fc.constantFrom("/skills", "/skills/k8s-debug", "/skills/..%2f..%2fetc", "/healthz", "/readyz", "/metrics", "/nope", "/%ZZ", "//route") },
  ),
  headers: fc.record(
    {
      "content-type": fc.oneof({ weight: 4, arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8") }, fc.constantFrom(...UNUSUAL_CONTENT_TYPES), printable(40)),
      "content-encoding": fc.oneof({ weight: 4, arbitrary: fc.constant("identity") }, fc.constantFrom("gzip", "br", "deflate, gzip")),
      authorization: printable(40),
      "x-request-id": printable(60),
      connection: fc.constantFrom("keep-alive", "close"),
      expect: fc.constant("100-continue"),
    },
    // A missing content type is covered by the empty printable string.
    { requiredKeys: ["content-type"] },
  ),
  body: fc.oneof(
    fc.constant(Buffer.alloc(0)),
    fc.string({ maxLength: 200 }).map((query) => Buffer.from(JSON.stringify({ query }))),
    fc.jsonValue({ maxDepth: 4 }).map((value) => Buffer.from(JSON.stringify(value) ?? "null")),
    fc.constantFrom("{", '{"query":', "nul", "{'query':'hi'}", '\uFEFF{"query":"hi"}', `{"query":"hi","context":${"[".repeat(5000)}${"]".repeat(5000)}}`).map((text) => Buffer.from(text)),
    fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
    fc.constant(Buffer.from('{"query":"my pod keeps restarting"}', "utf16le")),
    fc.integer({ min: MAX_BODY + 1, max: 40 * MAX_BODY }).map((size) => Buffer.from(JSON.stringify({ query: "hi", context: ["z".repeat(size)] }))),
  ),
  chunked: fc.boolean(),
  abortAfter: fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat({ max: 4000 }) }),
});

type Outcome = { status: number; closed: boolean } | { error: string } | { aborted: true };

function send(url: string, agent: http.Agent, request: Hostile): Promise<Outcome> {
  return new Promise((resolve) => {
    const framing = request.chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(request.body.length) };
    const outgoing = http.request(`${url}${request.path}`, { method: request.method, headers: { ...request.headers, ...framing }, agent, timeout: 15_000 });
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (!settled) resolve(outcome);
      settled = true;
    };
    outgoing.on("timeout", () => outgoing.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    outgoing.on("error", (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    outgoing.on("response", (response) => {
      response.resume();
      response.on("end", () => settle({ status: response.statusCode!, closed: response.headers.connection === "close" }));
      response.on("error", (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    });
    if (request.abortAfter === undefined) {
      outgoing.end(request.body);
      return;
    }
    outgoing.write(request.body.subarray(0, request.abortAfter), () =>
      setTimeout(() => {
        settle({ aborted: true });
        outgoing.destroy();
      }, 5),
    );
  });
}

async function startRouter(db: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "serve", "--db", db, "--host", "127.0.0.1", "--port", String(port), "--max-body-bytes", String(MAX_BODY), "--log-level", "warn"], {
    stdio: ["ignore", process.env.HOSTILE_LOG ? "inherit" : "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`router serve exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/readyz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, stop: () => new Promise((resolve) => child.once("exit", () => resolve()).kill("SIGTERM")) };
}

const dir = mkdtempSync(path.join(tmpdir(), "hostile-http-"));
try {
  const db = path.join(dir, "router.db");
  await runIndex({ paths: [SKILLS], db });
  const router = await startRouter(db);
  const requests = fc.sample(hostile, { numRuns: REQUESTS, seed: 42 });
  const statuses = new Map<string, number>();
  const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  let resets = 0;
  let otherErrors = 0;
  let cleanCloses = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (next < requests.length) {
        const outcome = await send(router.url, agent, requests[next++]!);
        if ("aborted" in outcome) count("client abort");
        else if ("error" in outcome) {
          count(`error ${outcome.error}`);
          if (outcome.error === "ECONNRESET" || outcome.error === "EPIPE") resets++;
          else otherErrors++;
        } else {
          count(String(outcome.status));
          if (outcome.closed) cleanCloses++;
        }
      }
      agent.destroy();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const metrics = await (await fetch(`${router.url}/metrics`)).text();
  // The readiness polls before the run answer 503 while the index loads; they are not part of it.
  const server5xx = [...metrics.matchAll(/^router_http_requests_total\{([^}]*)\} (\d+)/gm)]
    .filter(([, labels]) => /status="5\d\d"/.test(labels!) && !labels!.includes('route="/readyz"'))
    .reduce((sum, match) => sum + Number(match[2]), 0);
  const answered5xx = [...statuses].filter(([key]) => /^5\d\d$/.test(key)).reduce((sum, [, n]) => sum + n, 0);
  await router.stop();

  const rows = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `| ${key} | ${n} |`);
  console.log(`## Hostile HTTP (bench/hostile-http.ts)\n`);
  console.log(`${REQUESTS} requests on ${CONNECTIONS} kept-alive connections to \`router serve\` on loopback (max body ${MAX_BODY} bytes), ${seconds.toFixed(1)} s, seed 42.\n`);
  console.log("| measure | count |\n|---|---|");
  console.log(`| requests sent | ${REQUESTS} |`);
  console.log(`| connection resets (ECONNRESET/EPIPE) | ${resets} |`);
  console.log(`| other client errors | ${otherErrors} |`);
  console.log(`| answers with Connection: close | ${cleanCloses} |`);
  console.log(`| 5xx answered | ${answered5xx} |`);
  console.log(`| 5xx counted in /metrics | ${server5xx} |`);
  console.log("\n| status | count |\n|---|---|");
  console.log(rows.join("\n"));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
