// skill-router/client: a typed HTTP client for agents. Type-only imports from the router keep it free of SQLite, models and Hono.
export { createRouterClient } from "./router-client.js";
export type { CallOptions, RouterClient, RouterClientOptions } from "./router-client.js";
export { RouterClientError } from "./client-error.js";
export { MAX_CONTEXT_MESSAGES, MAX_K, MAX_QUERY_CHARS } from "../contract/limits.js";
// An offer's text as the router writes it, for an agent that lists the offered skills in its own prompt.
export { offerText } from "../contract/offer-text.js";
export type { ClientErrorCode } from "./client-error.js";
export type * from "./types.js";
