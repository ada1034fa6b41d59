import path from "node:path";
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { evidenceFloorRecord } from "../../src/store/evidence-floor.js";
import { shareScaleRecord } from "../../src/store/share-scale.js";
import { openIndexForWrite } from "../../src/store/database.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, writeFile } from "../helpers/fixtures.js";
import { markRoutingDataOlder } from "../helpers/older-routing-data.js";
import { indexSkillSet } from "../helpers/skill-set.js";

const KEY = "doctor-secret-0123456789";

describe("router doctor", () => {
  it("prints the effective config with where each setting came from, the key masked, as text and JSON", () => {
    const dir = tempDir();
    const config = writeFile(path.join(dir, "router.yaml"), "port: 9000\nlogLevel: warn\nhost: 0.0.0.0\n");
    const env = { ROUTER_API_KEY: KEY, ROUTER_LOG_LEVEL: "debug", ROUTER_DB: path.join(dir, "none.db"), ROUTER_MODELS_DIR: tempDir() };
    const json = runCli(["doctor", "--json", "--config", config, "--port", "9100"], { env });
    expect(JSON.parse(json.stdout).config).toMatchObject({
      file: config,
      settings: { port: 9100, logLevel: "debug", host: "0.0.0.0", apiKey: "********", decisionLog: "hash" },
      sources: { port: "flag", logLevel: "env", host: "file", apiKey: "env", decisionLog: "default" },
    });
    const text = runCli(["doctor", "--config", config], { env });
    expect(text.stdout).toMatch(/^Config \(.*router\.yaml; flags > env > file > defaults\)$/m);
    expect(text.stdout).toMatch(/^ {2}port +9000 \(file\)$/m);
    expect(text.stdout).toMatch(/^ {2}apiKey +\*{8} \(env\)$/m);
    for (const output of [json.stdout, json.stderr, text.stdout, text.stderr]) expect(output).not.toContain(KEY);
  });

  it("reports a bad config and a missing watch folder as problems and exits 1; warns about an open bind without a key", () => {
    const dir = tempDir();
    const env = { ROUTER_DB: path.join(dir, "none.db"), ROUTER_MODELS_DIR: tempDir() };
    const bad = runCli(["doctor", "--json"], { env: { ...env, ROUTER_PORT: "eighty" } });
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ status: "problems", config: { error: { code: "INVALID_ARGUMENT" } }, problems: [expect.stringMatching(/ROUTER_PORT must be a whole number/)] });

    const open = runCli(["doctor", "--json", "--host", "0.0.0.0", "--watch", path.join(dir, "gone")], { env });
    expect(open.status).toBe(1);
    const report = JSON.parse(open.stdout) as { problems: string[]; warnings: string[] };
    expect(report.problems).toContain(`watch: ${path.join(dir, "gone")} does not exist`);
    expect(report.warnings).toContainEqual(expect.stringMatching(/serving on 0\.0\.0\.0 without an API key/));
  });

  it("shows whether the explorer is served: on by default, off by ROUTER_EXPLORER, the config file or --no-explorer", () => {
    const dir = tempDir();
    const env = { ROUTER_DB: path.join(dir, "none.db"), ROUTER_MODELS_DIR: tempDir() };
    const config = writeFile(path.join(dir, "router.yaml"), "explorer: false\n");
    const explorer = (args: string[], extra: NodeJS.ProcessEnv = {}) => {
      const report = JSON.parse(runCli(["doctor", "--json", ...args], { env: { ...env, ...extra } }).stdout).config;
      return [report.settings.explorer, report.sources.explorer];
    };
    expect(explorer([])).toEqual([true, "default"]);
    expect(explorer([], { ROUTER_EXPLORER: "off" })).toEqual([false, "env"]);
    expect(explorer(["--config", config])).toEqual([false, "file"]);
    expect(explorer(["--no-explorer"], { ROUTER_EXPLORER: "true" })).toEqual([false, "flag"]);
    expect(runCli(["doctor"], { env }).stdout).toMatch(/^ {2}explorer +true \(default\)$/m);
  });

  it("reports an index whose routing data an older release wrote, until `router index` writes it anew", async () => {
    const dir = tempDir();
    const { root, db } = await indexSkillSet(dir);
    markRoutingDataOlder(db);
    const problems = () => (JSON.parse(runCli(["doctor", "--json"], { env: { ROUTER_DB: db } }).stdout) as { problems: string[] }).problems;
    expect(problems()).toContainEqual(expect.stringMatching(/routing data was written by an older skill-router: run `router index` again/));
    await runIndex({ paths: [root], db });
    expect(problems()).toEqual([]);
  });

  it("shows what routing runs on: the defaults, the evidence floor and the share scale `router index` measured", async () => {
    const { db } = await indexSkillSet(tempDir());
    const doctor = () => runCli(["doctor"], { env: { ROUTER_DB: db } }).stdout;
    expect(doctor()).toMatch(/^ {2}routing {4}the shipped defaults \(`router fit` not run\)$/m);
    // The test set's few skills are too few to measure either.
    expect(doctor()).toMatch(/^ {2}floor {6}not measured \(an index of fewer than 10 skills\)$/m);
    expect(doctor()).toMatch(/^ {2}shares {5}as the defaults give them/m);
    const writer = openIndexForWrite(db);
    evidenceFloorRecord.write(writer, { bm25: 0.41, q2qMax: 0.67, samples: 30, indexVersion: 1 });
    shareScaleRecord.write(writer, { scale: 0.85, samples: 40, rankedFirst: 0.7, indexVersion: 1 });
    writer.close();
    expect(doctor()).toMatch(/^ {2}floor {6}BM25 0\.41, dense 0\.67 \(measured on 30 requests whose skill was left out\)$/m);
    expect(doctor()).toMatch(/^ {2}shares {5}scale 0\.85 \(70% of 40 requests held out of their skills ranked their own first\)$/m);
    const report = JSON.parse(runCli(["doctor", "--json"], { env: { ROUTER_DB: db } }).stdout);
    expect(report.index.calibration).toMatchObject({ parameters: "defaults", evidenceFloor: { samples: 30 }, shareScale: { scale: 0.85 } });
  });

  it("lists every setting's flag and variable in `router serve --help`", () => {
    const help = runCli(["serve", "--help"]).stdout;
    for (const text of [
      "--config <file>",
      "ROUTER_CONFIG",
      "--watch <dir...>",
      "ROUTER_WATCH",
      "--cors-origins",
      "ROUTER_REQUEST_TIMEOUT_MS",
      "--no-explorer",
      "ROUTER_EXPLORER",
      "ROUTER_API_KEY",
      "default 127.0.0.1",
    ])
      expect(help).toContain(text);
    expect(help).not.toMatch(/--api-key/);
  });
});
