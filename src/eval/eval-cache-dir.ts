import { homedir } from "node:os";
import path from "node:path";

/** Where `router eval` keeps the indexes it builds of eval sets' skills (a module of its own: `--help` shows it, and must stay light). */
export function defaultEvalCacheDir(): string {
  return path.join(process.env["XDG_CACHE_HOME"] ?? path.join(homedir(), ".cache"), "skill-router", "eval");
}
