import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { openIndexForRead } from "../store/database.js";
import { createApp } from "./app.js";

export interface ServeOptions {
  db: string;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const db = openIndexForRead(options.db);
  const app = createApp({ db });
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () => resolve(started));
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => {
          db.close();
          if (error) reject(error);
          else resolve();
        }),
      ),
  };
}
