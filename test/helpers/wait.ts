import type { ChildProcess } from "node:child_process";

/**
 * Polls `condition` until it holds, and throws naming `what` when it has not within `ms`. A guard against a hang,
 * not a speed test: callers give a bound many times what the wait takes on a busy machine.
 */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ServeOutput {
  /** The URL it logged on its `listening` line. */
  url: string;
  /** Everything it has written to stdout so far (its JSON log lines). */
  stdout(): string;
}

/** Waits until a spawned `router serve` (stdout piped) logs that it is ready; throws with what it wrote when it exits first or takes longer than `ms`. */
export async function untilServeReady(child: ChildProcess, ms = 60_000): Promise<ServeOutput> {
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const ready = () => stdout.includes('"event":"ready"');
  await waitUntil(() => ready() || child.exitCode !== null, "router serve ready", ms).catch(() => undefined);
  const listening = stdout.split("\n").find((line) => line.includes('"event":"listening"'));
  if (!ready() || !listening) throw new Error(`router serve did not get ready (exit code ${child.exitCode}):\n${stdout}`);
  return { url: (JSON.parse(listening) as { url: string }).url, stdout: () => stdout };
}
