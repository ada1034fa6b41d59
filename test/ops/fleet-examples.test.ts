import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { CLI } from "../helpers/cli.js";
import { freePort, POSTGRES_MISSING, startPostgres, type TestPostgres } from "../helpers/postgres-server.js";

// The three shapes of docs/operations.md ("Where feedback goes"): docker and kubernetes cannot run here, so the files
// are parsed and the commands they run are run as processes, against a real PostgreSQL, with their paths mapped.
// Compose reads YAML merge keys (`<<: *feedback-store`), as YAML 1.1 did.
const fleet = parse(readFileSync("examples/compose/fleet.yaml", "utf8"), { merge: true }) as Compose;
const team = parse(readFileSync("examples/compose/team.yaml", "utf8"), { merge: true }) as Compose;
const manifests = parseAllDocuments(readFileSync("examples/kubernetes/fleet.yaml", "utf8")).map((doc) => doc.toJS() as K8sObject);
// Root writes anywhere; the replicas run as an unprivileged user, as the image does, so the read-only index is read-only to them.
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
const API_KEY = "fleet-example-key-0123456789";

interface Compose {
  services: Record<string, { command?: string[]; environment?: Record<string, string>; volumes?: string[]; read_only?: boolean; deploy?: { replicas: number } }>;
}
interface K8sContainer {
  command?: string[];
  env?: { name: string; value?: string }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
type K8sObject = { kind: string; metadata: { name: string }; spec: Record<string, any> };

describe("the fleet examples", () => {
  it("parse, and the Kubernetes builder and replicas run what the compose file's do", () => {
    const builder = fleet.services["builder"]!;
    const router = fleet.services["router"]!;
    expect(builder.environment!["ROUTER_FEEDBACK_URL"]).toMatch(/^postgres:\/\//);
    expect(router.environment).toMatchObject({ ROUTER_FEEDBACK_URL: builder.environment!["ROUTER_FEEDBACK_URL"], ROUTER_DB: "/index/router.db" });
    expect(router.volumes).toContain("index:/index:ro");
    expect(router.deploy!.replicas).toBe(3);
    const cron = manifests.find((object) => object.kind === "CronJob")!;
    const builderContainer = cron.spec["jobTemplate"].spec.template.spec.containers[0] as K8sContainer;
    expect(builderContainer.command).toEqual(builder.command);
    const deployment = manifests.find((object) => object.kind === "Deployment")!;
    expect(deployment.spec["replicas"]).toBe(3);
    const replica = deployment.spec["template"].spec.containers[0] as K8sContainer;
    expect(replica.env!.map((variable) => variable.name)).toEqual(["ROUTER_DB", "ROUTER_FEEDBACK_URL", "ROUTER_API_KEY"]);
    expect(replica.volumeMounts).toEqual([{ name: "index", mountPath: "/index", readOnly: true }]);
    expect(manifests.map((object) => object.kind).sort()).toEqual(["CronJob", "Deployment", "PersistentVolumeClaim", "PersistentVolumeClaim", "Service"]);
    expect(team.services["router"]!.environment).not.toHaveProperty("ROUTER_FEEDBACK_URL");
  });
});

describe.skipIf(POSTGRES_MISSING !== undefined)(`the fleet's commands as processes${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ""}`, () => {
  let pg: TestPostgres;
  let root: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    pg = await startPostgres({ fast: true });
    // One folder for the file's tests (the builder's file is reused), removed at the end.
    root = mkdtempSync(path.join(tmpdir(), "fleet-example-"));
    chmodSync(root, 0o755);
    for (const folder of ["build", "index"]) mkdirSync(path.join(root, folder));
  });

  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
    pg?.remove();
    rmSync(root, { recursive: true, force: true });
  });

  /** A path inside a container, as it is on this machine. */
  const mapped = (text: string) =>
    text
      .replaceAll("node dist/cli/main.js", `${process.execPath} ${CLI}`)
      .replaceAll("/app/data/skills", path.resolve("data/skills"))
      .replaceAll("/build/", `${root}/build/`)
      .replaceAll("/index/", `${root}/index/`);
  const runBuilder = () => {
    const [shell, flag, script] = fleet.services["builder"]!.command!;
    const result = spawnSync(shell!, [flag!, mapped(script!)], { env: { ...process.env, ROUTER_FEEDBACK_URL: pg.url }, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
  };
  const serve = async (environment: Record<string, string>, options: { readOnly: boolean }) => {
    const port = await freePort();
    const env = { ...process.env, ...environment, ROUTER_HOST: "127.0.0.1", ROUTER_PORT: String(port), ROUTER_RELOAD_INTERVAL_MS: "200", HOME: root };
    const child = spawn(process.execPath, [CLI, "serve"], { env, stdio: "ignore", ...(options.readOnly ? asUser : {}) });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await readiness(url)).ready === true);
    return url;
  };
  const feedback = (url: string, query: string) =>
    fetch(`${url}/feedback`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` }, body: JSON.stringify({ query, skill: "release-notes" }) });

  it("the builder folds PostgreSQL's rows in and publishes a new file; a replica on the read-only index writes feedback to the store and reloads the new version", async () => {
    runBuilder();
    expect(existsSync(path.join(root, "index", "router.db"))).toBe(true);
    chmodSync(path.join(root, "index", "router.db"), 0o444);
    chmodSync(path.join(root, "index"), 0o555);
    const environment = { ...fleet.services["router"]!.environment!, ROUTER_FEEDBACK_URL: pg.url, ROUTER_API_KEY: API_KEY, ROUTER_DB: mapped("/index/router.db") };
    const replica = await serve(environment, { readOnly: true });
    const before = (await readiness(replica)).index!.version;
    const stored = await feedback(replica, "QBR deck for Acme due friday");
    expect(stored.status, await stored.clone().text()).toBe(201);
    expect(((await stored.json()) as { applies: string }).applies).toMatch(/router index/);
    runBuilder();
    await waitFor(async () => (await readiness(replica)).index!.version > before);

    // The same replica without a store: a clear 409 naming the setting, never a 5xx.
    const withoutStore = await serve({ ...environment, ROUTER_FEEDBACK_URL: "" }, { readOnly: true });
    const refused = await feedback(withoutStore, "put together our QBR numbers");
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("FEEDBACK_STORE_READ_ONLY");
    expect(body.error.message).toContain("ROUTER_FEEDBACK_URL");
  }, 240_000);

  it("the team server keeps feedback in its writable index and folds it in within seconds", async () => {
    const data = path.join(root, "team");
    mkdirSync(data);
    cpSync(path.join(root, "build", "router.db"), path.join(data, "router.db"));
    const { ROUTER_WATCH: _watch, ...environment } = team.services["router"]!.environment!;
    const server = await serve({ ...environment, ROUTER_API_KEY: API_KEY, ROUTER_DB: path.join(data, "router.db"), ROUTER_FEEDBACK_URL: "" }, { readOnly: false });
    const before = (await readiness(server)).index!.version;
    const stored = await feedback(server, "need the QBR ready for the execs");
    expect(stored.status).toBe(201);
    expect(((await stored.json()) as { applies: string }).applies).toMatch(/within seconds/);
    await waitFor(async () => (await readiness(server)).index!.version > before);
  }, 120_000);
});

async function readiness(url: string): Promise<{ ready: boolean; index: { version: number } | null }> {
  const answer = await fetch(`${url}/readyz`, { headers: { authorization: `Bearer ${API_KEY}` } });
  return (await answer.json()) as { ready: boolean; index: { version: number } | null };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (performance.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
