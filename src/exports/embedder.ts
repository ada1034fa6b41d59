// skill-router/embedder: the router's embedders, to embed texts in your own harness exactly as an index does.
export { createEmbedder, planEmbedder } from "../models/create-embedder.js";
export type { EmbedderOptions, EmbedderPlan } from "../models/create-embedder.js";
export { createUseLiteEmbedder, USE_LITE } from "../models/use-lite-embedder.js";
export type { UseLiteOptions } from "../models/use-lite-embedder.js";
export { createMiniLmEmbedder } from "../models/minilm-embedder.js";
export type { MiniLmOptions } from "../models/minilm-embedder.js";
export type { Embedder } from "../models/embedder.js";
