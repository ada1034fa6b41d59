// The agent's tools, as any AI SDK app defines them. export-tools.ts writes them out for `router index`.
import { asSchema, tool, type ToolSet } from "ai";
import { z } from "zod";

export const tools = {
  get_current_weather: tool({
    description: "Get the current weather for a city: temperature, wind and rain.",
    inputSchema: z.object({ city: z.string().describe("City name, e.g. Lisbon") }),
    execute: async ({ city }) => ({ city, temperature_c: 21, sky: "clear" }),
  }),
  create_calendar_event: tool({
    description: "Create an event in the user's calendar with a title, start time and duration.",
    inputSchema: z.object({ title: z.string(), start: z.string().describe("ISO 8601 date-time"), minutes: z.number().int() }),
    execute: async ({ title, start }) => ({ created: true, title, start }),
  }),
  send_email: tool({
    description: "Send an email to a recipient with a subject and a plain-text body.",
    inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
    execute: async ({ to }) => ({ sent: true, to }),
  }),
  convert_currency: tool({
    description: "Convert an amount of money from one currency to another at today's exchange rate.",
    inputSchema: z.object({ amount: z.number(), from: z.string().length(3), to: z.string().length(3) }),
    execute: async ({ amount, from, to }) => ({ amount, from, to, converted: amount * 1.08 }),
  }),
} satisfies ToolSet;

/** The tool set as OpenAI function definitions, a format `router index` reads (names stay the tool keys). */
export async function toolDefinitions(set: ToolSet): Promise<unknown[]> {
  return Promise.all(
    Object.entries(set).map(async ([name, definition]) => ({
      type: "function",
      function: { name, description: definition.description ?? "", parameters: await asSchema(definition.inputSchema).jsonSchema },
    })),
  );
}
