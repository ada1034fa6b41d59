import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { CLI } from "../helpers/cli.js";
import { tempDir } from "../helpers/fixtures.js";

const DIST = path.dirname(path.dirname(CLI));
// What only running a command needs: model runtimes, the HTTP server, the LLM client, the MCP SDK, token counting.
// `expand --import` prints its index run with index's own summary format.
const SHARED_COMMAND_FILES: Record<string, string[]> = { expand: ["cli/index-command.js"] };
const HEAVY = [
  "better-sqlite3",
  "onnxruntime-node",
  "@huggingface/transformers",
  "onnx-proto",
  "hono",
  "@hono/node-server",
  "pino",
  "prom-client",
  "openai",
  "@modelcontextprotocol/sdk",
  "js-tiktoken",
  "chokidar",
];

/** Runs the built CLI with a module loader hook that records every module it loads (ES modules and the CommonJS packages they import). */
function runRecordingModules(args: string[]): { status: number | null; stdout: string; packages: string[]; ours: string[] } {
  const dir = tempDir();
  const list = path.join(dir, "loaded.txt");
  const hook = path.join(dir, "record-hook.mjs");
  const register = path.join(dir, "register.mjs");
  writeFileSync(list, "");
  writeFileSync(
    hook,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook's own source, a template literal written as text
    'import { appendFileSync } from "node:fs";\nlet file;\nexport function initialize(data) { file = data.file; }\nexport async function load(url, context, nextLoad) { appendFileSync(file, `${url}\\n`); return nextLoad(url, context); }\n',
  );
  writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)}, { data: { file: ${JSON.stringify(list)} } });\n`);
  const result = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, CLI, ...args], { encoding: "utf8" });
  const files = readFileSync(list, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:"))
    .map((url) => fileURLToPath(url));
  const packages = files.flatMap((file) => {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    return match ? [match[1]!] : [];
  });
  const ours = files.filter((file) => file.startsWith(`${DIST}${path.sep}`)).map((file) => path.relative(DIST, file));
  return { status: result.status, stdout: result.stdout, packages: [...new Set(packages)].sort(), ours: ours.sort() };
}

describe("router CLI start-up", () => {
  it("loads commander and four modules of its own for --version, nothing else", () => {
    const run = runRecordingModules(["--version"]);
    expect([run.status, run.stdout]).toEqual([0, `${VERSION}\n`]);
    expect(run.packages).toEqual(["commander"]);
    expect(run.ours).toEqual(["cli/exit-codes.js", "cli/main.js", "errors.js", "version.js"]);
  });

  it.each(["eval", "index", "skills", "show", "route", "fit", "serve", "expand", "manifests", "models", "doctor", "hook", "mcp"])(
    "loads only its own command and no runtime for `%s --help`",
    (command) => {
      const run = runRecordingModules([command, "--help"]);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`Usage: router ${command}`);
      expect(run.packages.filter((name) => HEAVY.includes(name))).toEqual([]);
      expect(run.ours.filter((file) => file.endsWith("-command.js"))).toEqual([`cli/${command}-command.js`, ...(SHARED_COMMAND_FILES[command] ?? [])].sort());
    },
  );
});
