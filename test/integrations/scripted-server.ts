import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the scripted server does with one request: answer it, pass it to the real router, or never answer. */
export type Scripted = { status: number; body: string; headers?: Record<string, string> } | { forward: string } | "hang";

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on a loopback port that plays a part the router itself never plays: a proxy's 429, a hang, a server that is not a router, a recorder in front of the router, or an LLM. */
export async function startScriptedServer(script: (request: SeenRequest, index: number) => Scripted): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const request = { method: incoming.method ?? "GET", url: incoming.url ?? "/", headers: incoming.headers, body: body.toString("utf8") };
      const action = script(request, seen.length);
      seen.push(request);
      if (action === "hang") {
        hanging.add(response);
        return;
      }
      if ("status" in action) {
        response.writeHead(action.status, { "content-type": "application/json", ...action.headers }).end(action.body);
        return;
      }
      void fetch(`${action.forward}${request.url}`, { method: request.method, headers: { "content-type": "application/json" }, ...(body.length > 0 ? { body } : {}) }).then(async (answer) => {
        response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
