import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../../src/config/load-settings.js";
import { DEFAULT_SETTINGS, defaultEmbedWorkers, isLoopback, maskSecrets } from "../../src/config/settings.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";

describe("settings", () => {
  it("take flags over the environment over the config file over the defaults, and say where each came from", () => {
    const dir = tempDir();
    const file = writeFile(path.join(dir, "router.yaml"), "port: 9000\nhost: 0.0.0.0\nlogLevel: debug\ndb: indexes/router.db\nwatch: [skills]\n");
    const { settings, sources, configFile } = loadSettings({
      flags: { config: file, port: 9002 },
      env: { ROUTER_PORT: "9001", ROUTER_HOST: "10.0.0.5", ROUTER_CORS_ORIGINS: "https://a.example, https://b.example", ROUTER_METRICS_PUBLIC: "yes" },
    });
    expect(configFile).toBe(file);
    expect(settings).toMatchObject({
      port: 9002,
      host: "10.0.0.5",
      logLevel: "debug",
      corsOrigins: ["https://a.example", "https://b.example"],
      metricsPublic: true,
      requestTimeoutMs: DEFAULT_SETTINGS.requestTimeoutMs,
    });
    // Paths in a config file are relative to the file, not to wherever the server starts.
    expect(settings.db).toBe(path.join(dir, "indexes", "router.db"));
    expect(settings.watch).toEqual([path.join(dir, "skills")]);
    expect(sources).toMatchObject({ port: "flag", host: "env", logLevel: "file", requestTimeoutMs: "default" });
  });

  it("read JSON config files, and ROUTER_CONFIG names one", () => {
    const file = writeFile(path.join(tempDir(), "router.json"), JSON.stringify({ requestTimeoutMs: 2500, decisionLog: "query" }));
    expect(loadSettings({ env: { ROUTER_CONFIG: file } }).settings).toMatchObject({ requestTimeoutMs: 2500, decisionLog: "query" });
    expect(loadSettings({ env: {} }).settings).toEqual(DEFAULT_SETTINGS);
  });

  it.each([
    [{ flags: { port: 70_000 } }, /--port: .*65535/],
    [{ env: { ROUTER_PORT: "eighty" } }, /ROUTER_PORT must be a whole number; got "eighty"/],
    [{ env: { ROUTER_METRICS_PUBLIC: "maybe" } }, /ROUTER_METRICS_PUBLIC must be true or false/],
    [{ env: { ROUTER_API_KEY: "short" } }, /ROUTER_API_KEY: must be at least 16 characters/],
    [{ env: { ROUTER_LOG_LEVEL: "loud" } }, /ROUTER_LOG_LEVEL: /],
    [{ env: { ROUTER_CORS_ORIGINS: "app.example.com" } }, /ROUTER_CORS_ORIGINS: must be "\*" or an origin/],
    [{ env: { ROUTER_EMBED_WORKERS: "0" } }, /ROUTER_EMBED_WORKERS: /],
    [{ flags: { embedMaxBatch: 0 } }, /--embed-max-batch: /],
    [{ env: { ROUTER_EMBED_BATCH_WINDOW_MS: "-1" } }, /ROUTER_EMBED_BATCH_WINDOW_MS: /],
  ])("refuse %j, naming the setting as it was given", (inputs, message) => {
    expect(() => loadSettings({ env: {}, ...inputs })).toThrow(message);
  });

  it("refuse a config file with an unknown key, a wrong type, or broken syntax, naming the file", () => {
    const dir = tempDir();
    const unknown = writeFile(path.join(dir, "a.yaml"), "prot: 8080\n");
    const wrong = writeFile(path.join(dir, "b.json"), JSON.stringify({ maxBodyBytes: "1MB" }));
    const broken = writeFile(path.join(dir, "c.yaml"), "port: [8080\n");
    expect(() => loadSettings({ flags: { config: unknown }, env: {} })).toThrow(/unknown setting prot \(known: db, host, port/);
    expect(() => loadSettings({ flags: { config: wrong }, env: {} })).toThrow(new RegExp(`maxBodyBytes in ${wrong}`));
    expect(() => loadSettings({ flags: { config: broken }, env: {} })).toThrow(/is not valid YAML/);
    expect(() => loadSettings({ flags: { config: path.join(dir, "missing.yaml") }, env: {} })).toThrow(/Cannot read the config file/);
  });

  it("take the query embedding settings, with one worker per core beyond the first (at most 2) by default", () => {
    const { settings, sources } = loadSettings({ env: { ROUTER_EMBED_WORKERS: "3", ROUTER_EMBED_MAX_BATCH: "16" }, flags: { embedBatchWindowMs: 0 } });
    expect(settings).toMatchObject({ embedWorkers: 3, embedMaxBatch: 16, embedBatchWindowMs: 0 });
    expect(sources).toMatchObject({ embedWorkers: "env", embedMaxBatch: "env", embedBatchWindowMs: "flag" });
    expect(DEFAULT_SETTINGS.embedWorkers).toBe(defaultEmbedWorkers());
    expect([1, 2, 3, 4, 64].map((cores) => defaultEmbedWorkers(cores))).toEqual([1, 1, 2, 2, 2]);
  });

  it("count only loopback addresses and localhost as loopback, for the warning about serving without an API key", () => {
    expect(["127.0.0.1", "127.8.9.10", "::1", "localhost"].filter(isLoopback)).toHaveLength(4);
    expect(["127.example.com", "0.0.0.0", "10.0.0.5", "::", "router.internal"].filter(isLoopback)).toEqual([]);
  });

  it("mask the API key and the tokens wherever settings are shown", () => {
    const { settings } = loadSettings({ env: { ROUTER_API_KEY: "a-secret-key-0123456789", OPENAI_API_KEY: "sk-secret", HF_TOKEN: "hf_secret" } });
    expect(settings).toMatchObject({ apiKey: "a-secret-key-0123456789", llmApiKey: "sk-secret", hubToken: "hf_secret" });
    expect(JSON.stringify(maskSecrets(settings))).not.toMatch(/secret/);
    expect(maskSecrets(settings)).toMatchObject({ apiKey: "********", llmApiKey: "********", hubToken: "********" });
  });

  it("take the skills root by position (an empty entry keeps its root), and paths in a file relative to the file", () => {
    expect(loadSettings({ env: { ROUTER_SKILLS_ROOT: `${path.delimiter}/app/tools` } }).settings.skillsRoot).toEqual(["", "/app/tools"]);
    const dir = tempDir();
    const file = writeFile(path.join(dir, "router.yaml"), "skillsRoot: ['', skills]\nmodelsDir: models\nevalCacheDir: cache\n");
    expect(loadSettings({ env: { ROUTER_CONFIG: file } }).settings).toMatchObject({
      skillsRoot: ["", path.join(dir, "skills")],
      modelsDir: path.join(dir, "models"),
      evalCacheDir: path.join(dir, "cache"),
    });
    expect(loadSettings({ env: { XDG_CACHE_HOME: "/xdg" } }).settings.evalCacheDir).toBe(path.join("/xdg", "skill-router", "eval"));
  });

  it("are read the same way by every command: flags over variables over the config file", () => {
    const dir = tempDir();
    writeAgentSkill(path.join(dir, "skills"), "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
    const config = writeFile(path.join(dir, "router.yaml"), "db: indexes/router.db\nexpander: heuristic\nembedder: offline\n");
    expect(runCli(["index", path.join(dir, "skills"), "--config", config, "-q"]).status).toBe(0);
    const fromFile = runCli(["route", "my pod keeps restarting", "--json"], { env: { ROUTER_CONFIG: config } });
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ selected: ["k8s-debug"], embedder: "use-lite-512" });
    const elsewhere = path.join(dir, "elsewhere.db");
    expect(runCli(["skills"], { env: { ROUTER_CONFIG: config, ROUTER_DB: elsewhere } }).stderr).toContain(`No index at ${elsewhere}`);
    expect(runCli(["skills", "--db", path.join(dir, "indexes", "router.db")], { env: { ROUTER_CONFIG: config, ROUTER_DB: elsewhere } }).stderr).toMatch(/^1 skills in /);
    // A bad value stops any command, named as it was given.
    const bad = runCli(["skills", "--config", config], { env: { ROUTER_MODEL_THREADS: "two" } });
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('ROUTER_MODEL_THREADS must be a whole number; got "two"')]);
    const llm = runCli(["index", path.join(dir, "skills"), "--config", config, "--expander", "auto", "--llm-model", "gpt-test", "-q"], { env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" } });
    expect([llm.status, llm.stderr]).toEqual([2, expect.stringContaining("LLM_NOT_CONFIGURED")]);
  });
});
