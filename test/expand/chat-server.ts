import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the scripted server answers to one request. */
export type ScriptedReply =
  | { content: string; finishReason?: string; usage?: { prompt: number; completion: number } }
  | { status: number; error: string; headers?: Record<string, string> }
  | { hang: true };

export interface ChatRequest {
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: { type: string };
  };
}

export interface ChatServer {
  /** Base URL for the openai client, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on an ephemeral loopback port speaking the OpenAI chat-completions protocol, answering
 * each request with what `reply` returns for it (the request and its 0-based number).
 */
export async function startChatServer(reply: (request: ChatRequest, index: number) => ScriptedReply): Promise<ChatServer> {
  const requests: ChatRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      if (incoming.method !== "POST" || !incoming.url?.endsWith("/chat/completions")) {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const request = { body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest["body"] };
      const scripted = reply(request, requests.length);
      requests.push(request);
      if ("hang" in scripted) {
        hanging.add(response);
        return;
      }
      if ("status" in scripted) {
        response.writeHead(scripted.status, { "content-type": "application/json", ...scripted.headers }).end(JSON.stringify({ error: { message: scripted.error, type: "scripted" } }));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: 0,
          model: request.body.model,
          choices: [{ index: 0, message: { role: "assistant", content: scripted.content, refusal: null }, finish_reason: scripted.finishReason ?? "stop" }],
          usage: { prompt_tokens: scripted.usage?.prompt ?? 100, completion_tokens: scripted.usage?.completion ?? 50, total_tokens: (scripted.usage?.prompt ?? 100) + (scripted.usage?.completion ?? 50) },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A manifest an LLM could have written for the skill named in the request's user message. */
export function goodManifestFor(request: ChatRequest): string {
  const name = /Skill name: (\S+)/.exec(request.body.messages.find((message) => message.role === "user")?.content ?? "")?.[1] ?? "skill";
  return JSON.stringify({
    queries: Array.from({ length: 20 }, (_, i) => `llm request ${i + 1} about ${name}`),
    keywords: Array.from({ length: 12 }, (_, i) => `${name}-term-${i + 1}`),
    phrases: Array.from({ length: 10 }, (_, i) => `${name} phrase ${i + 1}`),
    negatives: Array.from({ length: 6 }, (_, i) => `not ${name} near miss ${i + 1}`),
    negative_constraint: `Not for anything but ${name}.`,
    category: "testing",
  });
}
