import { startScriptedServer, type Scripted } from "../integrations/scripted-server.js";

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
 * The scripted server speaking the OpenAI chat-completions protocol, answering each request with what
 * `reply` returns for it (the request and its 0-based number among chat-completions requests).
 */
export async function startChatServer(reply: (request: ChatRequest, index: number) => ScriptedReply): Promise<ChatServer> {
  const requests: ChatRequest[] = [];
  const server = await startScriptedServer(({ method, url, body }) => {
    if (method !== "POST" || !url.endsWith("/chat/completions")) return { status: 404, body: JSON.stringify({ error: { message: "not found" } }) };
    const request = { body: JSON.parse(body) as ChatRequest["body"] };
    const scripted = reply(request, requests.length);
    requests.push(request);
    return asHttp(scripted, request, requests.length);
  });
  return { url: `${server.url}/v1`, requests, close: () => server.close() };
}

function asHttp(scripted: ScriptedReply, request: ChatRequest, number: number): Scripted {
  if ("hang" in scripted) return "hang";
  if ("status" in scripted) return { status: scripted.status, headers: scripted.headers, body: JSON.stringify({ error: { message: scripted.error, type: "scripted" } }) };
  const prompt = scripted.usage?.prompt ?? 100;
  const completion = scripted.usage?.completion ?? 50;
  return {
    status: 200,
    body: JSON.stringify({
      id: `chatcmpl-${number}`,
      object: "chat.completion",
      created: 0,
      model: request.body.model,
      choices: [{ index: 0, message: { role: "assistant", content: scripted.content, refusal: null }, finish_reason: scripted.finishReason ?? "stop" }],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
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
