import { once } from "node:events";
import http from "node:http";
import net from "node:net";

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Sent in one piece with a Content-Length, or in `chunks` with chunked transfer encoding. */
  body?: Buffer;
  chunked?: boolean;
  /** Destroys the request after sending this many bytes of the body: a client that gives up mid-way. */
  abortAfter?: number;
}

export type RawReply =
  | { kind: "answer"; status: number; headers: http.IncomingHttpHeaders; body: string; reusedSocket: boolean }
  | { kind: "failed"; code: string; reusedSocket: boolean }
  | { kind: "aborted" };

const CHUNK_BYTES = 16 * 1024;

/** One request over node:http (through `agent`, so keep-alive reuse is real), never rejecting. */
export function rawRequest(url: string, agent: http.Agent, spec: RawRequest, timeoutMs = 10_000): Promise<RawReply> {
  return new Promise((resolve) => {
    // Named explicitly: node:http frames GET, DELETE and OPTIONS bodies in chunks only when told to.
    const framing = spec.body === undefined ? {} : spec.chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(spec.body.length) };
    const headers = { ...spec.headers, ...framing };
    const request = http.request(`${url}${spec.path}`, { method: spec.method, headers, agent, timeout: timeoutMs });
    let settled = false;
    const settle = (reply: RawReply) => {
      if (!settled) resolve(reply);
      settled = true;
    };
    request.on("timeout", () => request.destroy(Object.assign(new Error("timed out"), { code: "TIMEOUT" })));
    request.on("error", (error: NodeJS.ErrnoException) =>
      settle(spec.abortAfter !== undefined ? { kind: "aborted" } : { kind: "failed", code: error.code ?? error.message, reusedSocket: request.reusedSocket }),
    );
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => settle({ kind: "answer", status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString("utf8"), reusedSocket: request.reusedSocket }));
      response.on("error", (error: NodeJS.ErrnoException) => settle({ kind: "failed", code: error.code ?? error.message, reusedSocket: request.reusedSocket }));
    });
    const body = spec.body ?? Buffer.alloc(0);
    if (spec.abortAfter !== undefined) {
      request.write(body.subarray(0, spec.abortAfter), () =>
        setTimeout(() => {
          request.destroy();
          settle({ kind: "aborted" });
        }, 20),
      );
      return;
    }
    if (!spec.chunked) {
      request.end(body);
      return;
    }
    for (let start = 0; start < body.length; start += CHUNK_BYTES) request.write(body.subarray(start, start + CHUNK_BYTES));
    request.end();
  });
}

/** A keep-alive agent with one socket, so a second request must reuse the first one's connection if it is still open. */
export function oneSocketAgent(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: 1 });
}

export interface SocketTranscript {
  /** Status of each answer, in order. */
  statuses: number[];
  /** The socket's error (ECONNRESET, EPIPE, ...), when it had one. */
  error: string | undefined;
}

/** Writes `requests` back to back on one TCP connection (pipelined), half-closes, and reads every answer until the server closes. */
export async function onOneConnection(url: string, requests: Buffer[]): Promise<SocketTranscript> {
  const { received, error } = await readUntilClose(url, (socket) => {
    const writeAll = async () => {
      for (const request of requests) if (!socket.write(request)) await once(socket, "drain");
      socket.end();
    };
    writeAll().catch(() => undefined);
  });
  return { statuses: [...received.toString("latin1").matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1])), error };
}

/** Opens a connection, lets `write` send on it, and collects every byte the server sends until it closes. */
function readUntilClose(url: string, write: (socket: net.Socket) => void): Promise<{ received: Buffer; error: string | undefined }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let error: string | undefined;
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
    socket.on("close", () => resolve({ received: Buffer.concat(received), error }));
    write(socket);
  });
}

/** The bytes of one HTTP/1.1 request; `chunked` frames the body in chunks of 64 KiB. */
export function requestBytes(method: string, path: string, headers: Record<string, string>, body: Buffer, chunked = false): Buffer {
  const framing = chunked ? "transfer-encoding: chunked" : `content-length: ${body.length}`;
  const head = Buffer.from(
    `${method} ${path} HTTP/1.1\r\nhost: localhost\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")}${framing}\r\n\r\n`,
  );
  if (!chunked) return Buffer.concat([head, body]);
  const parts: Buffer[] = [head];
  for (let start = 0; start < body.length; start += 65536) {
    const chunk = body.subarray(start, start + 65536);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

export interface RawExchange {
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** The socket's error (ECONNRESET, ...), when it had one. */
  error: string | undefined;
}

/** Writes `bytes` on a new connection and, without closing its side (a client that stalls), reads until the server closes. */
export async function sendAndWait(url: string, bytes: Buffer): Promise<RawExchange> {
  const { received, error } = await readUntilClose(url, (socket) => socket.write(bytes, () => undefined));
  const [head = "", body = ""] = received.toString("utf8").split("\r\n\r\n", 2);
  const [statusLine = "", ...fields] = head.split("\r\n");
  const headers = Object.fromEntries(fields.map((field) => [field.slice(0, field.indexOf(":")).toLowerCase(), field.slice(field.indexOf(":") + 1).trim()]));
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1];
  return { status: status === undefined ? undefined : Number(status), headers, body, error };
}
