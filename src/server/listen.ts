import { createServer, type Server, type ServerOptions } from "node:http";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { createError, type RouterError } from "../errors.js";
import { answerProtocolErrors, answerUnreadableRequest, type ProtocolAnswer } from "./protocol-errors.js";
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
  const onAnswer = options.onProtocolAnswer ?? (() => undefined);
  const fetch = async (request: Request, env: unknown): Promise<Response> => {
    // An HTTP/1.1 server: the adapter's bindings are node:http's.
    const bindings = env as HttpBindings;
    const response = await app.fetch(request, bindings);
    await discardUnreadBody(bindings.incoming);
    return response;
  };
  return new Promise((resolve, reject) => {
    const server = createServer(options.serverOptions ?? {}, (incoming, outgoing) => {
      // A listener per request, so that a request the adapter cannot make a URL of is answered and logged with its method.
      const listener = getRequestListener(fetch, {
        hostname: options.hostname,
        // Our discardUnreadBody replaces the adapter's clean-up, which resets connections still sending after 500 ms.
        autoCleanupIncoming: false,
        errorHandler: async (error) => {
          await discardUnreadBody(incoming);
          return answerUnreadableRequest(error, incoming.method ?? "unknown", onAnswer);
        },
      });
      void listener(incoming, outgoing);
    });
    answerProtocolErrors(server, onAnswer);
    const refuse = (error: NodeJS.ErrnoException) => reject(listenError(error, options));
    server.once("error", refuse);
    server.listen(options.port, options.hostname, () => {
      server.off("error", refuse);
      resolve(server);
    });
  });
}

function listenError(error: NodeJS.ErrnoException, { hostname, port }: ListenOptions): RouterError {
  const where = `${hostname}:${port}`;
  if (error.code === "EADDRINUSE") return createError("PORT_IN_USE", `Another process is listening on ${where}: stop it, or choose another port with --port`, { host: hostname, port });
  return createError("LISTEN_FAILED", `Cannot listen on ${where}: ${error.code ?? error.message}`, { host: hostname, port, cause: error.code ?? error.message });
}
