import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openIndexForRead } from "../../src/store/database.js";
import { readMeta } from "../../src/store/index-meta.js";
import { SHIPPED_ENV, SHIPPED_NODE_FLAGS } from "../../bench/shipped-serve-process.js";
import { tempDir } from "../helpers/fixtures.js";
import { untilServeReady, waitUntil } from "../helpers/wait.js";

// Docker does not run on our machines: these tests check what can be checked without it, and run the image's own
// commands (RUN steps, HEALTHCHECK, CMD) as plain processes in a folder laid out like the image's /app.

interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}

function parseDockerfile(text: string): Instruction[] {
  const lines = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  let stage = -1;
  return lines.map((line) => {
    const [keyword, ...rest] = line.split(/\s+/);
    if (keyword!.toUpperCase() === "FROM") stage++;
    return { keyword: keyword!.toUpperCase(), args: rest.join(" "), stage };
  });
}

/** Docker's rule, simplified to the patterns used here: the last matching line wins; a pattern also covers what is below it. */
function ignoredByDocker(file: string, patterns: string[]): boolean {
  let ignored = false;
  for (const line of patterns) {
    const negated = line.startsWith("!");
    const glob = new RegExp(`^${(negated ? line.slice(1) : line).replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}(/.*)?$`);
    if (glob.test(file)) ignored = !negated;
  }
  return ignored;
}

const dockerfile = parseDockerfile(readFileSync("Dockerfile", "utf8"));
const finalStage = Math.max(...dockerfile.map((instruction) => instruction.stage));
const runtime = dockerfile.filter((instruction) => instruction.stage === finalStage);
const imageEnv = Object.fromEntries(
  runtime.filter((instruction) => instruction.keyword === "ENV").flatMap((instruction) => [...instruction.args.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1]!, match[2]!])),
);

/** A folder shaped like the image's /app: the built dist/ and production node_modules, package.json and data/skills. */
function imageLikeApp(): { app: string; env: NodeJS.ProcessEnv } {
  const app = path.join(tempDir("image-app-"), "app");
  mkdirSync(path.join(app, "data"), { recursive: true });
  for (const entry of ["dist", "node_modules", "package.json"]) symlinkSync(path.resolve(entry), path.join(app, entry));
  cpSync("data/skills", path.join(app, "data", "skills"), { recursive: true });
  const env = Object.fromEntries(Object.entries(imageEnv).map(([name, value]) => [name, value.replace(/^\/app(?=\/|$)/, app)]));
  // Loopback here, not 0.0.0.0; and a hub address that refuses at once, so the pull step takes its offline path on any machine.
  return { app, env: { ...process.env, ...env, ROUTER_HOST: "127.0.0.1", ROUTER_PORT: "0", HF_ENDPOINT: "http://127.0.0.1:9" } };
}

describe("Dockerfile", () => {
  it("builds in one stage and runs in another, as a non-root user, with a health check, on port 8787", () => {
    expect(finalStage).toBe(1);
    expect(dockerfile.find((instruction) => instruction.keyword === "FROM")!.args).toMatch(/ AS build$/);
    const keywords = runtime.map((instruction) => instruction.keyword);
    const user = runtime.filter((instruction) => instruction.keyword === "USER").at(-1);
    expect(user?.args).toBe("node");
    expect(keywords.lastIndexOf("USER")).toBeLessThan(keywords.indexOf("CMD"));
    expect(runtime.find((instruction) => instruction.keyword === "EXPOSE")?.args).toBe("8787");
    // Healthy means ready: a container without a loadable index is not.
    expect(runtime.find((instruction) => instruction.keyword === "HEALTHCHECK")?.args).toMatch(/\/readyz/);
    // The benches run `router serve` as the image does (bench/shipped-serve-process.ts).
    expect(JSON.parse(runtime.find((instruction) => instruction.keyword === "CMD")!.args)).toEqual(["node", ...SHIPPED_NODE_FLAGS, "dist/cli/main.js", "serve"]);
    expect(imageEnv).toMatchObject(SHIPPED_ENV);
    // The offline model is built with the dev dependencies, which the runtime stage does not have: it is copied over.
    expect(runtime.filter((instruction) => instruction.keyword === "COPY").map((instruction) => instruction.args)).toContain("--from=build /app/models/use-lite-512 ./models/use-lite-512");
    // onnxruntime-node's install script must not fetch CUDA with the build image's npm.
    expect(dockerfile.filter((instruction) => instruction.stage === 0 && instruction.keyword === "ENV").map((instruction) => instruction.args)).toContain("ONNXRUNTIME_NODE_INSTALL=skip");
  });

  it("copies only files that exist and that .dockerignore lets into the build context", () => {
    const patterns = readFileSync(".dockerignore", "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    const sources = dockerfile.filter((instruction) => instruction.keyword === "COPY" && !instruction.args.startsWith("--from")).flatMap((instruction) => instruction.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) {
      expect(existsSync(source), source).toBe(true);
      expect(ignoredByDocker(source, patterns), `${source} is excluded by .dockerignore`).toBe(false);
    }
    expect(ignoredByDocker("node_modules/x", patterns) && ignoredByDocker("models/Xenova/x", patterns) && ignoredByDocker("data/router.db", patterns)).toBe(true);
  });

  it("runs its router steps as plain shell: the model pull fails softly offline, and the example index is built", () => {
    const { app, env } = imageLikeApp();
    const steps = runtime.filter((instruction) => instruction.keyword === "RUN" && instruction.args.includes("dist/cli/main.js"));
    expect(steps.map((step) => step.args)).toEqual([expect.stringContaining("models pull"), expect.stringContaining(" index data/skills")]);
    for (const step of steps) {
      const result = spawnSync("sh", ["-c", step.args], { cwd: app, env, encoding: "utf8" });
      expect(result.status, `${step.args}\n${result.stderr}`).toBe(0);
    }
    const index = openIndexForRead(env.ROUTER_DB!);
    try {
      expect(readMeta(index).embedder).toBe("use-lite-512");
    } finally {
      index.close();
    }
  });

  it("prunes only what nothing loads: js-tiktoken's other encodings, sharp, transformers.js's other builds; and checks what is left loads", () => {
    const run = dockerfile.find((instruction) => instruction.stage === 0 && instruction.keyword === "RUN" && instruction.args.startsWith("npm ci"))!.args;
    const imports = spawnSync("grep", ["-rhoE", 'from "(js-tiktoken|sharp|@huggingface/transformers)[^"]*"|import\\("(js-tiktoken|sharp|@huggingface/transformers)[^"]*"\\)', "src"], {
      encoding: "utf8",
    }).stdout;
    // The code reads the o200k_base ranks alone, and never sharp (transformers.js imports it for images only).
    expect(new Set(imports.match(/js-tiktoken[^"]*|sharp|@huggingface\/transformers/g))).toEqual(new Set(["js-tiktoken/ranks/o200k_base", "@huggingface/transformers"]));
    expect(run).toContain('! -path "*/dist/ranks/o200k_base.js"');
    expect(run).toContain('! -path "*/dist/transformers.node.mjs"');
    const loadCheck = run.slice(run.lastIndexOf("node --input-type=module"));
    for (const name of ["onnxruntime-node", "@huggingface/transformers", "js-tiktoken/ranks/o200k_base", "better-sqlite3"]) expect(loadCheck).toContain(`import('${name}')`);
  });

  it("is healthy only when ready: its HEALTHCHECK fails while there is no index, passes once one is built, and sends the key", async () => {
    const { app, env } = imageLikeApp();
    const keyed = { ...env, ROUTER_API_KEY: "image-key-0123456789abcdef", ROUTER_RELOAD_INTERVAL_MS: "200" };
    const [command, ...args] = JSON.parse(runtime.find((instruction) => instruction.keyword === "CMD")!.args) as string[];
    const server = spawn(command!, args, { cwd: app, env: keyed, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    server.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await waitUntil(() => stdout.includes('"event":"listening"'), "router serve listening");
      const port = new URL((JSON.parse(stdout.split("\n").find((line) => line.includes('"event":"listening"'))!) as { url: string }).url).port;
      const healthcheck = runtime.find((instruction) => instruction.keyword === "HEALTHCHECK")!.args.replace(/^.*?CMD\s+/, "");
      const check = (extra: NodeJS.ProcessEnv = {}) => spawnSync("sh", ["-c", healthcheck], { env: { ...keyed, ROUTER_PORT: port, ...extra } }).status;
      // Alive, but no index: unhealthy.
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(check()).toBe(1);
      expect(spawnSync(process.execPath, ["dist/cli/main.js", "index", "data/skills", "-q"], { cwd: app, env }).status).toBe(0);
      await waitUntil(() => check() === 0, "healthy once the index is built");
      expect(check({ ROUTER_API_KEY: "" })).toBe(1);
    } finally {
      server.kill("SIGTERM");
      await once(server, "exit");
    }
  });

  it("starts with its CMD, passes its HEALTHCHECK, and stops cleanly on SIGTERM", async () => {
    const { app, env } = imageLikeApp();
    expect(spawnSync(process.execPath, ["dist/cli/main.js", "index", "data/skills", "-q"], { cwd: app, env }).status).toBe(0);
    const [command, ...args] = JSON.parse(runtime.find((instruction) => instruction.keyword === "CMD")!.args) as string[];
    const server = spawn(command!, args, { cwd: app, env, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const port = new URL((await untilServeReady(server)).url).port;
      const check = runtime.find((instruction) => instruction.keyword === "HEALTHCHECK")!.args.replace(/^.*?CMD\s+/, "");
      expect(spawnSync("sh", ["-c", check], { env: { ...env, ROUTER_PORT: port } }).status).toBe(0);
      expect(spawnSync("sh", ["-c", check], { env: { ...env, ROUTER_PORT: "9" } }).status).toBe(1);
    } finally {
      server.kill("SIGTERM");
      const [code] = (await once(server, "exit")) as [number | null];
      expect(code).toBe(0);
    }
  });
});
