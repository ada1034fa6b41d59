import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("closing a model worker", () => {
  it("lets the call inside onnxruntime finish instead of aborting the process, and rejects it with MODEL_FAILED", () => {
    // Terminating the thread mid-inference aborted the whole process (exit 134, "terminate called after throwing an
    // instance of 'Napi::Error'") every time; the child closes three workers, each 30 ms into a 120-text batch.
    const child = spawnSync(process.execPath, ["--import", "tsx", "test/helpers/close-mid-inference.ts", "3", "120"], { encoding: "utf8", timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual(["MODEL_FAILED", "MODEL_FAILED", "MODEL_FAILED"]);
  });
});
