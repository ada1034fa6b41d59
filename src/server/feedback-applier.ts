import { createIndexRunner, FEEDBACK_RUN, type IndexRunnerOptions } from "./index-runner.js";

// Feedback is applied this long after the last piece arrived: a burst (a replayed log, a busy agent) is one run.
const FEEDBACK_SETTLE_MS = 300;

export interface FeedbackApplier {
  /** Folds the feedback stored so far into the index, once no more has arrived for a moment. */
  schedule(): void;
  /** Drops a run not started yet and stops one in progress (the feedback stays stored; the next run applies it). */
  close(): void;
}

/**
 * Applies stored feedback in a `router feedback apply` child process, so the embedding and the routing data never run
 * on the caller's event loop: `router serve` and `router mcp` both use it. Runs never overlap; one more follows a run
 * that feedback arrived during.
 */
export function createFeedbackApplier(options: Omit<IndexRunnerOptions, "run">): FeedbackApplier {
  const runner = createIndexRunner({ ...options, run: FEEDBACK_RUN });
  let timer: NodeJS.Timeout | undefined;
  return {
    schedule() {
      clearTimeout(timer);
      timer = setTimeout(() => void runner.run().catch(() => undefined), FEEDBACK_SETTLE_MS);
      timer.unref();
    },
    close() {
      clearTimeout(timer);
      runner.close();
    },
  };
}
