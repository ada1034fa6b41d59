import type { Server, ServerOptions } from "node:http";
import { serve, type HttpBindings } from "@hono/node-server";
import { createError, type RouterError } from "../errors.js";
import { answerProtocolErrors, type ProtocolAnswer } from "./protocol-errors.js";
import { discardUnreadBody } from "./unread-body.js";

export interface ListenOptions {
  hostname: string;
  port: number;
  serverOptions?: ServerOptions;
  /** Told of each answer given below the app (oversized headers, a slow client, CONNECT), which the app never sees. */
  onProtocolAnswer?: (answer: ProtocolAnswer) => void;
}

type FetchApp = { fetch: (request: Request, env: HttpBindings) => Response | Promise<Response> };

/** Serves `app` over HTTP/1.1; rejects with PORT_IN_USE or LISTEN_FAILED instead of crashing the process. */
export function listen(app: FetchApp, options: ListenOptions): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: async (request, env) => {
          const bindings = env as HttpBindings;
          const response = await app.fetch(request, bindings);
          await discardUnreadBody(bindings.incoming);
          return response;
        },
        hostname: options.hostname,
        port: options.port,
        // Our discardUnreadBody replaces the adapter's clean-up, which resets connections still sending after 500 ms.
        autoCleanupIncoming: false,
        ...(options.serverOptions ? { serverOptions: options.serverOptions } : {}),
      },
      () => {
        server.off("error", refuse);
        resolve(server as Server);
      },
    );
    answerProtocolErrors(server as Server, options.onProtocolAnswer ?? (() => undefined));
    const refuse = (error: NodeJS.ErrnoException) => reject(listenError(error, options));
    server.once("error", refuse);
  });
}

function listenError(error: NodeJS.ErrnoException, { hostname, port }: ListenOptions): RouterError {
  const where = `${hostname}:${port}`;
  if (error.code === "EADDRINUSE") return createError("PORT_IN_USE", `Another process is listening on ${where}: stop it, or choose another port with --port`, { host: hostname, port });
  return createError("LISTEN_FAILED", `Cannot listen on ${where}: ${error.code ?? error.message}`, { host: hostname, port, cause: error.code ?? error.message });
}
