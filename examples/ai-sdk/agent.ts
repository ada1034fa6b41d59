// An AI SDK agent whose model sees only the tools the router picks for each message, and which tells the router
// which tool the model used, so the router learns from every answer.
// Run: npx tsx examples/ai-sdk/agent.ts "will it rain in Lisbon today?"
// Needs a router serving the tools (see docs/integrations.md, "The Vercel AI SDK") and an OpenAI-compatible model:
// OPENAI_API_KEY, or OPENAI_BASE_URL for Ollama, vLLM, LM Studio...; MODEL picks the model (default gpt-4o-mini).
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { createRouterClient } from "skill-router/client";
import { routedTools } from "./routed-tools.js";
import { tools } from "./tools.js";

const openai = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY ?? "not-needed-locally" });
const router = createRouterClient({ timeoutMs: 1000, clientName: "ai-sdk-agent" });
const routing = routedTools(router, tools);

const result = await generateText({
  model: openai.chat(process.env.MODEL ?? "gpt-4o-mini"),
  tools,
  prepareStep: routing,
  stopWhen: stepCountIs(4),
  prompt: process.argv[2] ?? "Will it rain in Lisbon today?",
});

for (const step of result.steps) {
  console.log(`step ${step.stepNumber}: ${step.toolCalls.map((call) => `called ${call.toolName}`).join(", ") || "answered"}`);
}
console.log(result.text);

// After the answer: the tool the model used, or none, is the router's feedback. A failed report changes nothing here.
const report = await routing.report(result.steps).catch((error: Error) => error);
if (report instanceof Error) console.log(`not reported: ${report.message}`);
else if (report) console.log(`reported ${report.stored.skill ?? "no tool"}: ${report.stored.note}`);
else console.log("not reported: the router offered no tool, so the model had no choice to report");
