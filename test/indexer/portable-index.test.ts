import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { openIndexForRead } from "../../src/store/database.js";
import { readMeta } from "../../src/store/index-meta.js";
import { loadSettings } from "../../src/config/load-settings.js";
import { servedRootFolders, servedRootPaths } from "../../src/store/skill-location.js";
import { getSkill } from "../../src/store/skill-rows.js";
import { CLI, runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { untilServeReady } from "../helpers/wait.js";
import { goodManifestFor, startChatServer, type ChatServer } from "../expand/chat-server.js";
import { runCliAsync } from "../models/run-cli-async.js";

/** Three skills, one with supporting files, and a tool file. */
function writeSkills(root: string): void {
  writeAgentSkill(root, "k8s-debug", {
    description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting.",
    body: "# Kubernetes debugging\n\nRun `scripts/triage.sh <namespace>` for a report.\n",
    files: { "scripts/triage.sh": '#!/bin/sh\nkubectl get pods -n "$1"\n', "references/probes.md": "# Probes\n" },
  });
  writeAgentSkill(root, "pdf-extract", { description: "Extract text and tables from PDF files. Use when the user shares a PDF." });
  writeAgentSkill(root, "sql-query-review", { description: "Speed up slow SQL queries with EXPLAIN ANALYZE. Use when a database query is slow." });
  writeFile(
    path.join(root, "tools", "weather.json"),
    JSON.stringify([{ type: "function", function: { name: "get_current_weather", description: "Current weather for a city.", parameters: { type: "object", properties: {} } } }]),
  );
}

/** The folder and files a served injection lists ("Supporting files (relative to <folder>):\n- <file>"). */
function listedFiles(injection: string): { folder: string; files: string[] } {
  const match = /\n\nSupporting files \(relative to (.+)\):\n((?:- .+\n?)+)$/.exec(injection);
  if (!match) throw new Error(`no supporting files listed in:\n${injection}`);
  return {
    folder: match[1]!,
    files: match[2]!
      .trim()
      .split("\n")
      .map((line) => line.slice(2)),
  };
}

/** Every file a served skill points an agent at exists: its source file (a tool's without the JSON pointer), and each listed file. */
function expectRealPaths(sourcePath: string, injection?: string): void {
  expect(existsSync(sourcePath.split("#")[0]!), sourcePath).toBe(true);
  if (injection === undefined) return;
  const listed = listedFiles(injection);
  expect(listed.folder).toBe(path.dirname(sourcePath));
  for (const file of listed.files) expect(existsSync(path.join(listed.folder, file)), file).toBe(true);
}

let chat: ChatServer | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  server?.kill("SIGKILL");
  server = undefined;
});

describe("a portable index", () => {
  it("re-indexes a moved skills folder with no embedding and no LLM call; moved skills reuse the paid manifests", async () => {
    chat = await startChatServer((request) => ({ content: goodManifestFor(request) }));
    const llm = { ROUTER_LLM_MODEL: "scripted-model", OPENAI_BASE_URL: chat.url, OPENAI_API_KEY: "" };
    const first = path.join(tempDir(), "skills");
    const db = path.join(tempDir(), "router.db");
    writeSkills(first);
    const indexed = await runCliAsync(["index", first, "--db", db, "-q", "--json"], llm);
    expect(indexed.status, indexed.stderr).toBe(0);
    expect(JSON.parse(indexed.stdout)).toMatchObject({ added: expect.arrayContaining(["k8s-debug"]), embedded: 4, expansion: { sources: { llm: 4 } } });
    expect(chat.requests).toHaveLength(4);

    // Moved (or cloned, or checked out elsewhere): the same content, nothing to embed or ask for.
    const moved = path.join(tempDir(), "elsewhere", "team-skills");
    mkdirSync(path.dirname(moved));
    renameSync(first, moved);
    const again = await runCliAsync(["index", moved, "--db", db, "-q", "--json"], llm);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: [], updated: [], moved: [], removed: [], unchanged: 4, embedded: 0, expansion: { sources: { llm: 0 } } });
    expect(chat.requests).toHaveLength(4);
    const index = openIndexForRead(db);
    const skill = getSkill(index, "k8s-debug")!;
    expect(readMeta(index).roots).toEqual([moved]);
    index.close();
    expect(skill.sourcePath).toBe(path.join(moved, "k8s-debug", "SKILL.md"));
    expect(skill.relativePath).toBe("k8s-debug/SKILL.md");
    expectRealPaths(skill.sourcePath, skill.injection);

    // Skills dropped from the index and found again elsewhere are embedded, but their manifests come from the cache,
    // whose key (the content hash) no longer holds a path.
    const narrowed = await runCliAsync(["index", path.join(moved, "k8s-debug"), "--db", db, "-q", "--json"], llm);
    expect(JSON.parse(narrowed.stdout)).toMatchObject({ moved: ["k8s-debug"], removed: expect.arrayContaining(["pdf-extract"]), embedded: 0 });
    const back = await runCliAsync(["index", moved, "--db", db, "-q", "--json"], llm);
    expect(JSON.parse(back.stdout)).toMatchObject({ added: expect.arrayContaining(["pdf-extract"]), moved: ["k8s-debug"], embedded: 3, expansion: { cacheHits: 3, sources: { llm: 3 } } });
    expect(chat.requests).toHaveLength(4);
  });

  it("serves an index built in another folder with ROUTER_SKILLS_ROOT: every path handed to an agent is real", async () => {
    const build = tempDir();
    writeSkills(path.join(build, "skills"));
    await runIndex({ paths: [path.join(build, "skills")], db: path.join(build, "router.db") });
    // CI built the index; the container has the skills and the index file at other paths, and nothing at the old ones.
    const app = tempDir();
    cpSync(path.join(build, "skills"), path.join(app, "skills"), { recursive: true });
    cpSync(path.join(build, "router.db"), path.join(app, "index", "router.db"), { recursive: true });
    rmSync(build, { recursive: true });
    const db = path.join(app, "index", "router.db");
    const env = { ROUTER_SKILLS_ROOT: path.join(app, "skills") };

    const url = await serve(db, env);
    const listing = (await (await fetch(`${url}/skills`)).json()) as { name: string; source_path: string }[];
    expect(listing).toHaveLength(4);
    for (const summary of listing) expectRealPaths(summary.source_path);
    const detail = (await (await fetch(`${url}/skills/k8s-debug`)).json()) as { source_path: string; body: string };
    expectRealPaths(detail.source_path, detail.body);
    const routed = (await (
      await fetch(`${url}/route`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "my pod keeps restarting", include: ["body"] }) })
    ).json()) as {
      selected: string[];
      skills: { name: string; body: string }[];
    };
    expect(routed.selected).toEqual(["k8s-debug"]);
    expectRealPaths(detail.source_path, routed.skills[0]!.body);

    const shown = runCli(["show", "k8s-debug", "--db", db], { env });
    expect(shown.status, shown.stderr).toBe(0);
    expectRealPaths(detail.source_path, shown.stdout.trimEnd());

    const mcp = new Client({ name: "portable-test", version: "1.0.0" });
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db], env: { ...(process.env as Record<string, string>), ...env }, stderr: "pipe" }));
    try {
      const read = (await mcp.callTool({ name: "read_skill", arguments: { name: "k8s-debug" } })) as unknown as {
        structuredContent: { source_path: string; body: string; supporting_files: string[] };
      };
      expectRealPaths(read.structuredContent.source_path, read.structuredContent.body);
      expect(read.structuredContent.supporting_files).toEqual(["references/probes.md", "scripts/triage.sh"]);
    } finally {
      await mcp.close();
    }

    // Without the variable, paths are the ones recorded at index time: where `router index` read the skills.
    const unmapped = runCli(["show", "k8s-debug", "--db", db, "--json"], { env: { ROUTER_SKILLS_ROOT: "" } });
    expect(JSON.parse(unmapped.stdout).source_path).toBe(path.join(build, "skills", "k8s-debug", "SKILL.md"));
  });

  it("re-bases roots by position with ROUTER_SKILLS_ROOT; an empty entry keeps a root, and a file root keeps its name", () => {
    const roots = [
      { path: "/ci/skills", folder: "/ci/skills" },
      { path: "/ci/tools/tools.json", folder: "/ci/tools" },
      { path: "/ci/more", folder: "/ci/more" },
    ];
    const skillsRoot = (value: string | undefined) => loadSettings({ env: { ROUTER_SKILLS_ROOT: value } }).settings.skillsRoot;
    const override = skillsRoot(["/app/skills", "/app/tools"].join(path.delimiter));
    expect(
      servedRootFolders(
        roots.map((root) => root.folder),
        override,
      ),
    ).toEqual(["/app/skills", "/app/tools", "/ci/more"]);
    expect(servedRootPaths(roots, override)).toEqual(["/app/skills", "/app/tools/tools.json", "/ci/more"]);
    expect(servedRootPaths(roots, skillsRoot(`${path.delimiter}/app/tools`))).toEqual(["/ci/skills", "/app/tools/tools.json", "/ci/more"]);
    expect(servedRootPaths(roots, skillsRoot(undefined))).toEqual(roots.map((root) => root.path));
  });
});

/** `router serve` on a free port, as users run it; resolves to its URL once it is ready. */
async function serve(db: string, env: NodeJS.ProcessEnv): Promise<string> {
  server = spawn(process.execPath, [CLI, "serve", "--db", db, "--port", "0", "--reload-interval-ms", "0"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  return (await untilServeReady(server)).url;
}
