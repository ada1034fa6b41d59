import { Hono } from "hono";
import type { IndexDatabase } from "../store/database.js";
import { readMeta } from "../store/index-meta.js";
import { countSkills } from "../store/skill-rows.js";
import { VERSION } from "../version.js";

export interface AppOptions {
  db: IndexDatabase;
}

export function createApp(options: AppOptions): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => {
    const meta = readMeta(options.db);
    return c.json({ status: "ok", version: VERSION, index: { version: meta.indexVersion, skills: countSkills(options.db), embedder: meta.embedder ?? null } });
  });
  return app;
}
