import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openIndexForRead } from "../../src/store/database.js";
import { readMeta } from "../../src/store/index-meta.js";
import { listSkills } from "../../src/store/skill-rows.js";
import { CLI, runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";

/** Many tools in one file: embedding them keeps the write transaction open long enough to kill the process in it. */
function writeManyTools(file: string, count: number): void {
  const tools = Array.from({ length: count }, (_, index) => ({
    type: "function",
    function: { name: `tool_${index}`, description: `Tool number ${index} does ${"useful work ".repeat(30)}`, parameters: { type: "object", properties: { input: { type: "string" } } } },
  }));
  writeFile(file, JSON.stringify(tools));
}

describe("an index run killed with SIGKILL", () => {
  it("leaves the previous index intact", async () => {
    const before = tempDir();
    writeAgentSkill(before, "survivor");
    const db = path.join(tempDir(), "router.db");
    expect(runCli(["index", before, "--db", db]).status).toBe(0);

    const big = tempDir();
    writeManyTools(path.join(big, "tools.json"), 2_000);
    const child = spawn(process.execPath, [CLI, "index", big, "--db", db], { stdio: ["ignore", "ignore", "pipe"] });
    const killedMidTransaction = await new Promise<boolean>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("embedding") && child.exitCode === null) {
          child.kill("SIGKILL");
          resolve(true);
        }
      });
      child.on("exit", () => resolve(false));
    });
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.on("exit", resolve)));
    expect(killedMidTransaction).toBe(true);
    expect(child.signalCode).toBe("SIGKILL");

    const index = openIndexForRead(db);
    try {
      expect(listSkills(index).map((skill) => skill.name)).toEqual(["survivor"]);
      expect(readMeta(index).indexVersion).toBe(1);
      expect(index.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      index.close();
    }
  });
});
