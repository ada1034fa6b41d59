/** What the hook process prints and how it exits; exit 2 would block the user's prompt, so it is never used. */
export interface HookRun {
  /** The hook output JSON for stdout, only when a skill is injected. */
  stdout?: string;
  /** One line for stderr: Claude Code keeps it out of the conversation, and shows it to the user on exit 1. */
  note?: string;
  exitCode: 0 | 1;
}
