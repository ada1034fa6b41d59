import { type IncomingMessage, type Server, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { RequestError } from "@hono/node-server";
import { createError, type ErrorCode, type RouterError } from "../errors.js";
import { clip } from "./echo-limits.js";
import { LINGER_MS } from "./unread-body.js";

/** An answer given below the app, for the access log and the request counter. */
export interface ProtocolAnswer {
  method: string;
  status: number;
  code: ErrorCode;
}

const CLIENT_ERROR_CODES: Record<string, ErrorCode> = { HPE_HEADER_OVERFLOW: "HEADERS_TOO_LARGE", ERR_HTTP_REQUEST_TIMEOUT: "CLIENT_TIMEOUT" };

/**
 * Answers what never reaches the app in the catalogue's JSON shape, where Node would send a bare status line or close
 * the socket: headers too large (431), headers too slow (408), malformed HTTP (400), and CONNECT (404, as for any
 * endpoint this server does not have). Each connection is then drained before it closes (see answerAndClose).
 */
export function answerProtocolErrors(server: Server, onAnswer: (answer: ProtocolAnswer) => void): void {
  // Node reports a connection's parse error again for each chunk that follows it: one answer per connection.
  const answered = new WeakSet<Duplex>();
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // A reset connection, or an answer already on its way (a slow body the app answered), leaves nothing to say.
    if (!socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const answer = createError(CLIENT_ERROR_CODES[error.code ?? ""] ?? "MALFORMED_HTTP");
    answerAndClose(socket, answer);
    onAnswer({ method: "unknown", status: answer.status, code: answer.code });
  });
  server.on("connect", (request: IncomingMessage, socket: Duplex) => {
    const answer = createError("ROUTE_NOT_FOUND", `No endpoint CONNECT ${clip(request.url ?? "")}`);
    answerAndClose(socket, answer);
    onAnswer({ method: "CONNECT", status: answer.status, code: answer.code });
  });
}

/**
 * The answer to a request Node parsed but the HTTP adapter could not make a URL of (a backslash in its path, a Host
 * that is not a host), which it would answer with a bare 400: MALFORMED_HTTP in the catalogue's JSON shape. Anything
 * else the adapter hands over (an app that threw outside its own error handler) is a 500 INTERNAL_ERROR.
 */
export function answerUnreadableRequest(error: unknown, method: string, onAnswer: (answer: ProtocolAnswer) => void): Response {
  const answer = error instanceof RequestError ? createError("MALFORMED_HTTP", `The request target is not valid: ${clip(error.message)}`) : createError("INTERNAL_ERROR");
  onAnswer({ method, status: answer.status, code: answer.code });
  return new Response(JSON.stringify({ error: answer.toJSON() }), { status: answer.status, headers: { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" } });
}

/**
 * Writes the answer and half-closes, then reads and drops what the client still sends until it closes its side, at
 * most LINGER_MS: closing with bytes still arriving makes the kernel reset the connection, and the client loses the answer.
 */
function answerAndClose(socket: Duplex, error: RouterError): void {
  const body = JSON.stringify({ error: error.toJSON() });
  // The HTTP parser is done with this connection.
  socket.removeAllListeners("data");
  socket.on("error", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.on("close", () => clearTimeout(linger));
  socket.on("end", () => socket.destroy());
  socket.resume();
}

/** Whether the connection's current response has sent its head (Node keeps it on the socket as `_httpMessage`). */
function responseStarted(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true;
}
