import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRouterClient } from "../../src/client/index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { writeAgentSkill } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { INVOICE_REQUEST, indexOfferSkills } from "../helpers/offer-skills.js";
import { waitUntil } from "../helpers/wait.js";
import { closedEndpoint } from "../helpers/mock-hub.js";
import { binShims } from "./bin-shims.js";
import { runProcess } from "./run-process.js";
import { TSX } from "./tsx.js";

const dir = mkdtempSync(path.join(tmpdir(), "examples-"));
let server: RunningServer;
// A router that is not sure which of two skills fits a request, and offers both.
let offering: RunningServer;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
  offering = await startServer({ db: await indexOfferSkills(path.join(dir, "offer")), host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
  await Promise.all([server.ready, offering.ready]);
});

afterAll(async () => {
  await Promise.all([server.close(), offering.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function runExample(file: string, message: string, routerUrl: string, ...rest: string[]) {
  return runProcess(process.execPath, [TSX, file, message, ...rest], "", { env: { ROUTER_URL: routerUrl } });
}

describe("examples", () => {
  it("type-check against the types skill-router/client publishes", async () => {
    const result = await runProcess(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "examples"], "");
    expect([result.code, result.stdout]).toEqual([0, ""]);
  });

  it("fetch.ts puts the routed skill into the system prompt, and none when the router is down", async () => {
    const routed = await runExample("examples/fetch.ts", "my pod keeps restarting with CrashLoopBackOff", server.url);
    const system: string = JSON.parse(routed.stdout).messages[0].content;
    expect(system).toMatch(/^You are a helpful assistant\.\n\nFollow the skill "k8s-debug":\n\n# Kubernetes debugging/);
    const down = await runExample("examples/fetch.ts", "my pod keeps restarting", await closedEndpoint());
    expect([down.code, JSON.parse(down.stdout).messages[0].content]).toEqual([0, "You are a helpful assistant."]);
  });

  it("fetch.ts hands an offer to the model as a list and a load_skill tool, then loads the skill the model chose", async () => {
    const offered = JSON.parse((await runExample("examples/fetch.ts", INVOICE_REQUEST, offering.url, "invoice-maker")).stdout);
    expect(offered.messages[0].content).toContain("- invoice-maker: Create PDF invoices for clients with line items and VAT.");
    expect(offered.messages[0].content).toContain("load it with the load_skill tool");
    expect(offered.tools[0].function).toMatchObject({ name: "load_skill" });
    expect([...offered.tools[0].function.parameters.properties.name.enum].sort()).toEqual(["invoice-maker", "invoice-pdf", "invoice-writer"]);
    expect(offered.load_skill).toContain("# Invoice maker");
  });

  it("client.ts injects, abstains, falls back, and shows an offer", async () => {
    const routed = await runExample("examples/client.ts", "my pod keeps restarting with CrashLoopBackOff", server.url);
    expect(routed.stdout).toMatch(/^inject k8s-debug \(confidence [01]\.\d\d, \d+ tokens\)\n# Kubernetes debugging/);
    const none = await runExample("examples/client.ts", "what is the capital of France?", server.url);
    expect(none.stdout).toMatch(/^no skill fits \(below_threshold\); closest was/);
    const down = await runExample("examples/client.ts", "my pod keeps restarting", await closedEndpoint());
    expect([down.code, down.stdout]).toEqual([0, "no skill (router_unavailable: ROUTER_UNREACHABLE); answering without one\n"]);
    const offered = await runExample("examples/client.ts", INVOICE_REQUEST, offering.url);
    expect(offered.stdout).toMatch(/^offer (invoice-[a-z]+, ){2}invoice-[a-z]+ \(\d+ tokens\):\nskill-router found these installed skills/);
  });
});

describe("keeping the index fresh after installs", () => {
  it("the postinstall script of examples/keep-fresh re-indexes, and a running router serves the new skill", async () => {
    const project = path.join(dir, "my-agent");
    const skills = path.join(project, "skills");
    writeAgentSkill(skills, "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
    copyFileSync("examples/keep-fresh/package.json", path.join(project, "package.json"));
    // npm puts node_modules/.bin first on a script's PATH, where installing skill-router links `router`.
    binShims(path.join(project, "node_modules", ".bin"));
    const npm = (script: string) => runProcess("npm", ["run", script, "--silent"], "", { env: { npm_config_update_notifier: "false" }, cwd: project });

    expect((await npm("postinstall")).code).toBe(0);
    const db = path.join(project, ".router", "index.db");
    expect(existsSync(db)).toBe(true);
    const served = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 100 });
    try {
      await served.ready;
      const client = createRouterClient({ url: served.url });
      const question = "turn this scanned PDF invoice into a table with pdfplumber";
      expect((await client.routeOrThrow(question)).selected).toEqual([]);

      writeAgentSkill(skills, "pdf-extract", { description: "Extract text and tables from PDF files with pdfplumber. Use when the user shares a PDF or asks to pull data out of one." });
      expect((await npm("postinstall")).code).toBe(0);
      let selected: string[] = [];
      await waitUntil(async () => (selected = (await client.routeOrThrow(question)).selected).length > 0, "the new skill routed");
      expect(selected).toEqual(["pdf-extract"]);
    } finally {
      await served.close();
    }
  });
});
