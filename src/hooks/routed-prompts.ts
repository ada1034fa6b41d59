import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AnsweredQuery } from "../contract/route.js";

/**
 * The last routed prompt of each Claude Code session, kept between the hook's runs (each prompt and each tool call is
 * a new process) in a small file per session. Every method swallows its errors: the hook must never fail the session.
 */
export interface RoutedPrompts {
  /** Remembers the session's prompt, or forgets the last one (`undefined`): a skill loaded now is not for it. */
  remember(sessionId: string, prompt: AnsweredQuery | undefined): void;
  /** The session's last routed prompt, once: a second skill loaded for the same prompt is not reported. */
  take(sessionId: string): AnsweredQuery | undefined;
}

/** Per user, in the system's temporary folder: the prompts are only needed until Claude loads a skill for them. */
export function defaultStateDir(): string {
  return path.join(tmpdir(), `skill-router-hook-${process.getuid?.() ?? "user"}`);
}

/** Sessions' prompts as files in `dir`, which must be a folder of this user's that nobody else may read (it holds prompts). */
export function routedPromptsIn(dir: string): RoutedPrompts {
  const fileOf = (sessionId: string) => (privateFolder(dir) ? path.join(dir, `${createHash("sha256").update(sessionId).digest("hex").slice(0, 32)}.json`) : undefined);
  return {
    remember(sessionId, prompt) {
      try {
        const file = fileOf(sessionId);
        if (!file) return;
        if (prompt) replaceFile(file, JSON.stringify(prompt));
        else rmSync(file, { force: true });
      } catch {
        // No memory, no report: the prompt itself went through.
      }
    },
    take(sessionId) {
      try {
        const file = fileOf(sessionId);
        if (!file) return undefined;
        const prompt = JSON.parse(readFileSync(file, "utf8")) as Partial<AnsweredQuery>;
        rmSync(file, { force: true });
        return typeof prompt.query === "string" && typeof prompt.route_id === "string" ? { query: prompt.query, route_id: prompt.route_id } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** Writes `text` beside `file` and renames it over: a reader, or a hook stopped mid-write, sees a whole prompt or none, never part of one. */
function replaceFile(file: string, text: string): void {
  const staging = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(staging, text, { mode: 0o600 });
    renameSync(staging, file);
  } catch (error) {
    rmSync(staging, { force: true });
    throw error;
  }
}

/** Creates the folder if needed; false when it is a link, another user's, or open to others (a shared /tmp is). */
function privateFolder(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  return stat.isDirectory() && (uid === undefined || (stat.uid === uid && (stat.mode & 0o077) === 0));
}
