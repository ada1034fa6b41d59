import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openIndexForRead } from "../../src/store/database.js";
import { evidenceFloorRecord } from "../../src/store/evidence-floor.js";
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

/** Runs `router index` on `paths` and kills it with SIGKILL once its progress shows `stage`; true when it was killed there. */
async function killDuring(stage: string, paths: string[], db: string): Promise<boolean> {
  const child = spawn(process.execPath, [CLI, "index", ...paths, "--db", db], { stdio: ["ignore", "ignore", "pipe"] });
  const killed = await new Promise<boolean>((resolve) => {
    child.stderr.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes(stage) && child.exitCode === null) {
        child.kill("SIGKILL");
        resolve(true);
      }
    });
    child.on("exit", () => resolve(false));
  });
  await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.on("exit", resolve)));
  return killed && child.signalCode === "SIGKILL";
}

describe("an index run killed with SIGKILL", () => {
  it("leaves the previous index intact", async () => {
    const before = tempDir();
    writeAgentSkill(before, "survivor");
    const db = path.join(tempDir(), "router.db");
    expect(runCli(["index", before, "--db", db]).status).toBe(0);

    const big = tempDir();
    writeManyTools(path.join(big, "tools.json"), 2_000);
    expect(await killDuring("embedding", [big], db)).toBe(true);

    const index = openIndexForRead(db);
    try {
      expect(listSkills(index).map((skill) => skill.name)).toEqual(["survivor"]);
      expect(readMeta(index).indexVersion).toBe(1);
      expect(index.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      index.close();
    }
  });

  it("while it measures the new index, leaves the previous one with the calibration measured for it", { timeout: 120_000 }, async () => {
    const first = tempDir();
    writeManyTools(path.join(first, "tools.json"), 40);
    const db = path.join(tempDir(), "router.db");
    expect(runCli(["index", first, "--db", db]).status).toBe(0);
    const floorBefore = readFloor(db);
    expect(floorBefore?.indexVersion).toBe(1);

    const more = tempDir();
    writeManyTools(path.join(more, "tools.json"), 400);
    expect(await killDuring("measuring the evidence floor", [more], db)).toBe(true);
    const index = openIndexForRead(db);
    try {
      // Neither the new skills nor a floor measured on them: the previous version, whole.
      expect(readMeta(index).indexVersion).toBe(1);
      expect(listSkills(index)).toHaveLength(40);
      expect(evidenceFloorRecord.read(index)).toEqual(floorBefore);
    } finally {
      index.close();
    }
  });
});

function readFloor(db: string) {
  const index = openIndexForRead(db);
  try {
    return evidenceFloorRecord.read(index);
  } finally {
    index.close();
  }
}
