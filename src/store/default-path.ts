import path from "node:path";

/** Where the index lives unless `--db` or `ROUTER_DB` say otherwise; a module of its own so that reading it loads no SQLite. */
export const DEFAULT_DB_PATH = path.join("data", "router.db");
