import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { once } from "node:events";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MODEL_CATALOGUE, modelFolder } from "../../src/models/model-catalogue.js";
import { OFFLINE_MODEL_DIR, OFFLINE_MODEL_FILES } from "../../src/models/offline-model-files.js";
import { CLI, runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";
import { writeTinyBert } from "../helpers/tiny-bert.js";
import { untilServeReady } from "../helpers/wait.js";

// onnxruntime 1.30 turns its telemetry off by itself on a CI machine, found by these variables (read from its
// library's strings): the tests unset them so that they check what a user's machine does, CI or not.
const CI_VARIABLES = [
  "CI",
  "TF_BUILD",
  "GITHUB_ACTIONS",
  "GITLAB_CI",
  "CIRCLECI",
  "TRAVIS",
  "JENKINS_URL",
  "CODEBUILD_BUILD_ID",
  "BUILDKITE",
  "TEAMCITY_VERSION",
  "APPVEYOR",
  "BITBUCKET_BUILD_NUMBER",
];
const NOT_ON_CI: NodeJS.ProcessEnv = Object.fromEntries(CI_VARIABLES.map((name) => [name, undefined]));

// onnxruntime 1.30 keeps a device id and a telemetry store under ~/.cache/Microsoft, and warns in colour on stderr
// when it cannot write there. A home below a file cannot be written even by root (ENOTDIR), so this holds on any machine.
function unwritableHome(): NodeJS.ProcessEnv {
  const file = path.join(tempDir("home-"), "a-file");
  writeFileSync(file, "");
  const home = path.join(file, "home");
  return { ...NOT_ON_CI, HOME: home, XDG_CACHE_HOME: path.join(home, ".cache"), ORT_DISABLE_TELEMETRY: undefined };
}

function skills(): string {
  const root = tempDir("skills-");
  writeAgentSkill(root, "k8s-debug", { name: "k8s-debug", description: "Debug Kubernetes pods that crash or restart" });
  writeAgentSkill(root, "git-rebase", { name: "git-rebase", description: "Rebase a git branch onto another and resolve conflicts" });
  return root;
}

describe("onnxruntime says nothing on stderr, and keeps no telemetry", () => {
  it("onnxruntime on its own does warn there, in colour, when the home folder is not writable (what the rest guards against)", () => {
    const onnxruntime = pathToFileURL(createRequire(import.meta.url).resolve("onnxruntime-node")).href;
    const script = `import(${JSON.stringify(onnxruntime)}).then((ort) => ort.InferenceSession.create(${JSON.stringify(path.join(OFFLINE_MODEL_DIR, OFFLINE_MODEL_FILES.graph))}))`;
    // In a folder of its own: without a home to write, onnxruntime keeps its event store beside it (":memory:.ses").
    const result = spawnSync(process.execPath, ["-e", script], { cwd: tempDir("onnx-"), env: { ...process.env, ...unwritableHome() }, encoding: "utf8" });
    expect(result.status).toBe(0);
    // In colour: an ANSI escape (ESC [ ... m) before the text.
    expect(result.stderr).toContain("\u001b[");
    expect(result.stderr).toMatch(/telemetry/);
  });

  it("router index, with the offline model and with a MiniLM (transformers.js): stderr empty", () => {
    const modelsDir = tempDir("models-");
    writeTinyBert(modelFolder(modelsDir, MODEL_CATALOGUE.minilm), "feature-extraction");
    for (const embedder of ["offline", "minilm"]) {
      const result = runCli(["index", skills(), "--db", path.join(tempDir(), "router.db"), "-q", "--expander", "heuristic"], {
        env: { ...unwritableHome(), ROUTER_EMBEDDER: embedder, ROUTER_MODELS_DIR: modelsDir },
      });
      expect([embedder, result.status, result.stderr]).toEqual([embedder, 0, ""]);
    }
  });

  it("router serve, whose model runs in a worker thread: stderr empty; and a writable home gets no telemetry store", async () => {
    const db = path.join(tempDir(), "router.db");
    expect(runCli(["index", skills(), "--db", db, "-q"]).status).toBe(0);
    const home = tempDir("writable-home-");
    for (const env of [unwritableHome(), { ...NOT_ON_CI, HOME: home, XDG_CACHE_HOME: undefined, ORT_DISABLE_TELEMETRY: undefined }]) {
      const server = spawn(process.execPath, [CLI, "serve", "--db", db, "--port", "0", "--embed-workers", "1"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      try {
        const { url } = await untilServeReady(server);
        const response = await fetch(`${url}/route`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "my pod keeps restarting" }) });
        expect(response.status).toBe(200);
      } finally {
        server.kill("SIGTERM");
        await once(server, "exit");
      }
      expect(stderr).toBe("");
    }
    expect(existsSync(path.join(home, ".cache", "Microsoft"))).toBe(false);
  });
});
