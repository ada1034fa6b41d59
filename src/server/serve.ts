import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { isRouterError, createError } from "../errors.js";
import { createRouter, type RouterOptions } from "../route/router.js";
import { createApp, type RouterSlot } from "./app.js";

export interface ServeOptions {
  db: string;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** How often to look for a newer index written by `router index` (ms); 0 turns it off. */
  reloadIntervalMs?: number;
  router?: Omit<RouterOptions, "db">;
}

export interface RunningServer {
  url: string;
  slot: RouterSlot;
  /** Resolves when the router has loaded (or failed to). */
  ready: Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_RELOAD_INTERVAL_MS = 2000;

/**
 * Listens at once (liveness answers while the index and models load) and loads the router in the
 * background; /readyz and /route answer 503 until it has loaded.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const slot: RouterSlot = { router: undefined, error: undefined };
  const app = createApp(slot);
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () => resolve(started));
  });
  const ready = createRouter({ db: options.db, ...options.router }).then(
    (router) => {
      slot.router = router;
    },
    (error: unknown) => {
      slot.error = isRouterError(error) ? error : createError("INTERNAL_ERROR", (error as Error).message);
    },
  );
  const interval = options.reloadIntervalMs ?? DEFAULT_RELOAD_INTERVAL_MS;
  const reloader =
    interval > 0
      ? setInterval(() => {
          try {
            slot.router?.refresh();
          } catch (error) {
            console.error(`index reload failed, still serving the previous version: ${(error as Error).message}`);
          }
        }, interval)
      : undefined;
  reloader?.unref();
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    slot,
    ready,
    async close() {
      if (reloader) clearInterval(reloader);
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      await ready;
      await slot.router?.close();
    },
  };
}
