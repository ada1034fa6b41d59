import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createProgress } from "../../src/cli/progress.js";

/** A real stream that records what was written, as a terminal (isTTY) or as a pipe to a log. */
function capture(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY, columns: 60 });
  const chunks: string[] = [];
  (stream as unknown as PassThrough).on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  return { stream, text: () => chunks.join("") };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("progress when stderr is not a terminal", () => {
  it("says nothing at the start and one line with the unit and the duration when the stage completes", async () => {
    const { stream, text } = capture(false);
    const bar = createProgress("reading", "files", stream);
    for (let done = 0; done <= 11; done++) bar.update(done, 11, `skill-${done}/SKILL.md`);
    bar.finish();
    await settle();
    expect(text()).toMatch(/^reading 11\/11 files \(100%\) in \d+\.\d s\n$/);
  });

  it("prints where a stage got to when it stops short, and nothing for a stage that never started", async () => {
    const { stream, text } = capture(false);
    const stopped = createProgress("embedding", "skills", stream);
    stopped.update(64, 1043);
    stopped.finish();
    createProgress("measuring the evidence floor", "routes", stream).finish();
    await settle();
    expect(text()).toMatch(/^embedding 64\/1043 skills \(6%\) in \d+\.\d s\n$/);
  });

  it("prints nothing when disabled (--quiet, --json)", async () => {
    const { stream, text } = capture(false);
    const bar = createProgress("routing", "cases", stream, false);
    bar.update(3, 3);
    bar.finish();
    await settle();
    expect(text()).toBe("");
  });
});

describe("progress on a terminal", () => {
  it("redraws one line with the unit and clears it at the end", async () => {
    const { stream, text } = capture(true);
    const bar = createProgress("routing", "cases", stream);
    bar.update(1, 2);
    bar.update(2, 2);
    bar.finish();
    await settle();
    const frames = text()
      .split("\r")
      .filter((frame) => frame !== "");
    expect(frames[0]!.trimEnd()).toBe("routing 1/2 cases (50%)");
    expect(frames[1]!.trimEnd()).toBe("routing 2/2 cases (100%)");
    expect(frames.at(-1)!.trim()).toBe("");
    expect(text()).not.toContain("\n");
  });
});
