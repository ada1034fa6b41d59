import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";
import { modelOptions } from "../config/model-options.js";
import { withDefaults, type Settings } from "../config/settings.js";
import { createError, isRouterError, type RouterError } from "../errors.js";
import { createQueryEncoder, type QueryEncoder } from "../models/query-encoder.js";
import { createRouter, type RouterOptions } from "../route/router.js";
import { asIndexError, openIndexForRead } from "../store/database.js";
import { checkIndexFileOffThread } from "../store/index-integrity.js";
import { readMeta } from "../store/index-meta.js";
import { createFeedbackStore } from "../feedback/create-feedback-store.js";
import { feedbackResult, recordFeedbackIn } from "../feedback/record-feedback.js";
import { createApp, type FeedbackSink, type RouterSlot } from "./app.js";
import { drainServer } from "./drain-server.js";
import { createIndexReloader } from "./index-reloader.js";
import { createFeedbackApplier } from "./feedback-applier.js";
import { createIndexRunner, indexRun, type IndexRunner } from "./index-runner.js";
import { listen } from "./listen.js";
import { LINGER_MS } from "./unread-body.js";
import { silentLogger, type Logger } from "./logger.js";
import { createMetrics, recordIndex, type ServerMetrics } from "./metrics.js";
import { watchSkills, type SkillWatcher } from "./skill-watcher.js";
import { preloadHanGlosses } from "../text/han-gloss.js";
import { loadTokenCounter } from "../text/token-count.js";

export type ServeOptions = Pick<Settings, "db" | "host" | "port"> &
  Partial<Omit<Settings, "db" | "host" | "port" | "logLevel">> & {
    /** Where logs go; silent unless given (`router serve` passes a JSON logger on stdout). */
    logger?: Logger;
    router?: Omit<RouterOptions, "db">;
    /** The `router` CLI that `watch` runs `router index` with; default: the one installed with this module. */
    cli?: string;
    /** The config file the settings came from, handed to the `router index` runs of `watch` so they read the same. */
    configFile?: string;
  };

export interface RunningServer {
  url: string;
  slot: RouterSlot;
  metrics: ServerMetrics;
  /** Resolves when the router has loaded (or failed to; `slot.error` says why). */
  ready: Promise<void>;
  /** Looks for a new index version now, as the poll does every `reloadIntervalMs` (or loads one that failed to load, if its file changed); true when one was swapped in. */
  reload(): Promise<boolean>;
  /** Graceful: readiness turns false, in-flight requests finish (up to `shutdownGraceMs`), then everything closes. */
  close(): Promise<void>;
}

const INSTALLED_CLI = fileURLToPath(new URL("../cli/main.js", import.meta.url));
// How long after the app's own deadline Node's timer may cut a request whose body stalls (it checks once a second).
const BACKSTOP_MS = 3_000;
// Of a request's time, what POST /feedback keeps for judging and answering after waiting for another writer's lock:
// a lock held longer is answered INDEX_LOCKED with Retry-After, before the request's deadline answers REQUEST_TIMEOUT.
const FEEDBACK_ANSWER_MS = 1_000;

/**
 * Listens at once (liveness answers while the index and models load) and loads the router in the background;
 * /readyz and /route answer 503 until it has loaded, with the reason when loading failed (a missing or damaged
 * index): the server stays up and loads the index once its file changes. With `watch`, the folders are indexed
 * first, then again whenever they change.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const settings = withDefaults(options);
  const logger = options.logger ?? silentLogger();
  const metrics = createMetrics();
  const inFlight = { count: 0 };
  const slot: RouterSlot = { router: undefined, error: undefined, draining: false };
  // The index file as it was when loading it last failed: it is tried again once the file changes.
  let failedOn: string | undefined;
  // Feedback kept in the index is folded into its texts by a `router feedback apply` child process (the embedding and
  // routing data never run on this event loop), and the reload that follows serves it. Feedback kept in PostgreSQL (many
  // replicas on a read-only index) waits for the next `router index`, which folds the store in.
  let applyFeedback: () => void = () => undefined;
  const lockWaitMs = Math.max(0, settings.requestTimeoutMs - Math.min(FEEDBACK_ANSWER_MS, settings.requestTimeoutMs / 5));
  const feedbackStore = await createFeedbackStore(settings, { waitMs: lockWaitMs });
  const feedback: FeedbackSink = async (router, request, client, sender) => {
    const recorded = await recordFeedbackIn(feedbackStore, router, request, client, sender);
    if (feedbackStore.kind === "index") {
      if (!recorded.duplicate) applyFeedback();
      return feedbackResult(recorded, "within seconds, once this server has folded it into the index");
    }
    return feedbackResult(recorded, "on the next `router index` that folds the feedback store in, once replicas load that version");
  };
  let encoder: QueryEncoder | undefined;
  // Damage found while serving (SQLite reads a page only when a request needs it): not ready until the file changes.
  const indexFault = (error: unknown): RouterError | undefined => {
    // SQLite's own errors, and the store's INDEX_* made of them (a feedback write opens the file itself).
    const known = asIndexError(error, settings.db);
    if (!isRouterError(known) || !known.code.startsWith("INDEX_")) return undefined;
    const router = slot.router;
    if (known.code === "INDEX_CORRUPT" && router) {
      slot.router = undefined;
      slot.error = known;
      failedOn = indexSignature(settings.db);
      logger.error({ event: "index_corrupt", code: known.code, err: known.message }, "the index file is damaged: readiness stays false until it changes");
      // Requests still on it finish first (each version's connection closes after its last user); the encoder is kept for the next load.
      void router.close();
    }
    return known;
  };
  const app = createApp(slot, { ...settings, logger, metrics, inFlight, feedback, indexFault });
  const server = await listen(app, {
    hostname: settings.host,
    port: settings.port,
    // Node's own limits on slow clients, checked every second, not every 30: headers must arrive in time; for a body the
    // app answers first (408 CLIENT_TIMEOUT, then up to LINGER_MS for the rest), and Node's timer only backs it up.
    serverOptions: { requestTimeout: settings.requestTimeoutMs + LINGER_MS + BACKSTOP_MS, headersTimeout: settings.requestTimeoutMs, connectionsCheckingInterval: 1000 },
    onProtocolAnswer: ({ method, status, code }) => {
      metrics.requests.inc({ method, route: "unmatched", status: String(status) });
      const line = { event: "request", method, route: "unmatched", status, code };
      if (status >= 500) logger.error(line, "request failed outside the app");
      else logger.info(line, "request refused before the app");
    },
  });

  const reloader = createIndexReloader(slot, metrics, logger);
  const load = async (): Promise<void> => {
    try {
      // Damage is found before anything is served, off the event loop (a large file not in the page cache takes seconds).
      await checkIndexFileOffThread(settings.db);
      const { embedder, indexVersion } = indexState(settings.db);
      // A file whose first `router index` run has not committed yet holds tables and no version: not an index to serve,
      // and said before any model is loaded (a server polls such a file until the run commits).
      if (indexVersion === 0) throw createError("INDEX_NOT_FOUND", `${settings.db} has no finished index run yet: run \`router index <path> --db ${settings.db}\``, { file: settings.db });
      const modelStarted = performance.now();
      // One kept from an index taken out of service serves again when the new index has the same embedder.
      if (encoder && encoder.id !== embedder) {
        await encoder.close();
        encoder = undefined;
      }
      encoder ??= options.router?.queryEncoder
        ? undefined
        : await createQueryEncoder({
            ...modelOptions(settings),
            indexEmbedder: embedder,
            workers: settings.embedWorkers,
            maxBatch: settings.embedMaxBatch,
            batchWindowMs: settings.embedBatchWindowMs,
          });
      const indexStarted = performance.now();
      if (encoder) metrics.modelLoadSeconds.set((indexStarted - modelStarted) / 1000);
      const router = await createRouter({
        db: settings.db,
        tieBreak: settings.tieBreak,
        models: modelOptions(settings),
        skillsRoot: settings.skillsRoot,
        ...options.router,
        ...(encoder ? { queryEncoder: encoder } : {}),
      });
      const status = router.status();
      recordIndex(metrics, status, (performance.now() - indexStarted) / 1000);
      slot.router = router;
      // Said once, here and in `router doctor`, not in every answer.
      if (status.rerankerUnavailable) logger.warn({ event: "tie_break_off", reason: status.rerankerUnavailable }, `tie-break asked for but off: ${status.rerankerUnavailable}`);
      logger.info(
        {
          event: "ready",
          index_version: status.indexVersion,
          skills: status.skills,
          vectors: status.vectors,
          embedder: status.embedder,
          reranker: status.reranker,
          fusion: status.fusion,
          model_load_ms: Math.round(indexStarted - modelStarted),
        },
        "ready",
      );
    } catch (error) {
      await encoder?.close();
      encoder = undefined;
      throw error;
    }
  };

  const feedbackApplier = createFeedbackApplier({
    cli: options.cli ?? INSTALLED_CLI,
    db: settings.db,
    ...(options.configFile ? { configFile: options.configFile } : {}),
    logger,
    metrics,
    onIndexed: () => reloader.check(),
  });
  applyFeedback = () => feedbackApplier.schedule();
  // A failed load is tried again when the index file changes (a first `router index`, a repaired file), not on every poll.
  let loading: Promise<void> | undefined;
  const tryLoad = (indexed?: RouterError): Promise<void> =>
    (loading ??= (async () => {
      const signature = indexSignature(settings.db);
      try {
        await load();
        slot.error = undefined;
      } catch (error) {
        const reason = indexed ?? routerErrorOf(error, settings.db);
        // Said at error level once per reason: the poll tries again quietly until the reason changes.
        const repeated = slot.error?.code === reason.code && slot.error.message === reason.message;
        slot.error = reason;
        failedOn = signature;
        logger[repeated ? "debug" : "error"]({ event: "load", code: reason.code, err: reason.message }, "could not load the index and models; readiness stays false");
      }
    })().finally(() => (loading = undefined)));
  const retryLoad = (): Promise<void> => (slot.router || slot.draining || failedOn === indexSignature(settings.db) ? Promise.resolve() : tryLoad());

  let runner: IndexRunner | undefined;
  let watcher: SkillWatcher | undefined;
  if (settings.watch.length > 0) {
    runner = createIndexRunner({
      cli: options.cli ?? INSTALLED_CLI,
      run: indexRun(settings.watch),
      db: settings.db,
      ...(options.configFile ? { configFile: options.configFile } : {}),
      logger,
      metrics,
      onIndexed: () => (slot.router ? reloader.check() : retryLoad()),
    });
    watcher = watchSkills(settings.watch, settings.db, settings.watchDebounceMs, () => void runner!.run().catch(() => undefined), logger);
  }
  const ready = (async () => {
    // With --watch the folders are the source of truth: bring the index up to date before serving it.
    const indexed = runner
      ? await runner.run().then(
          () => undefined,
          (error: RouterError) => error,
        )
      : undefined;
    // The token counter's ranks take about half a second to read: read now, before ready, not on the first offer.
    loadTokenCounter();
    // A successful watch run has loaded the index already.
    if (!slot.router) await tryLoad(indexed);
    void preloadHanGlosses();
  })();

  const poll = settings.reloadIntervalMs > 0 ? setInterval(() => void (slot.router ? reloader.check() : retryLoad()), settings.reloadIntervalMs) : undefined;
  poll?.unref();
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    slot,
    metrics,
    ready,
    reload: async () => (slot.router ? reloader.check() : retryLoad().then(() => slot.router !== undefined)),
    close() {
      closing ??= (async () => {
        slot.draining = true;
        clearInterval(poll);
        runner?.close();
        feedbackApplier.close();
        await watcher?.close();
        const cut = await drainServer(server, inFlight, settings.shutdownGraceMs);
        if (cut > 0) logger.warn({ event: "shutdown", cut }, "grace period over: requests still in flight were cut");
        await ready;
        await loading;
        await slot.router?.close();
        await encoder?.close();
        await feedbackStore.close();
        logger.info({ event: "shutdown" }, "stopped");
      })();
      return closing;
    },
  };
}

/** The embedder that built the index (queries are embedded the same way) and its version, read without loading it. */
function indexState(db: string): { embedder: string | null; indexVersion: number } {
  const index = openIndexForRead(db);
  try {
    const meta = readMeta(index);
    return { embedder: meta.embedder ?? null, indexVersion: meta.indexVersion };
  } finally {
    index.close();
  }
}

/** What changes when the index file is written or replaced: its and its WAL's identity, size and time. */
function indexSignature(db: string): string {
  return [db, `${db}-wal`]
    .map((file) => {
      const stats = statSync(file, { throwIfNoEntry: false });
      return stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : "-";
    })
    .join("/");
}

function routerErrorOf(error: unknown, db: string): RouterError {
  const known = asIndexError(error, db);
  return isRouterError(known) ? known : createError("INTERNAL_ERROR", (error as Error).message);
}
