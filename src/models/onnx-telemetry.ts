import { isMainThread } from "node:worker_threads";

/**
 * Turns onnxruntime's telemetry off before its first session starts. Since 1.30 it keeps a device id and an event
 * store under ~/.cache/Microsoft on Linux, and prints a coloured warning on stderr when it cannot write there (a home
 * that is read-only or missing, as a container's user may have). It reads the switch from the process's environment
 * when it starts; a worker's process.env is a copy of its own, so only the main thread's assignment reaches it: the
 * main thread calls this before it loads a model and before it starts a model worker. A value already set is kept.
 */
export function disableOnnxTelemetry(): void {
  // biome-ignore lint/style/noProcessEnv: onnxruntime has no API for this switch; it reads ORT_DISABLE_TELEMETRY from the environment.
  if (isMainThread) process.env.ORT_DISABLE_TELEMETRY ??= "1";
}
