import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildDocs, GENERATED_FILES, GENERATED_MARKER } from "../../scripts/build-docs.js";

// docs/http-api.md and docs/cli.md are written from the code (the app's OpenAPI document, every command's --help):
// regenerate them beside the committed ones and compare.
const out = mkdtempSync(path.join(tmpdir(), "skill-router-docs-"));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("generated docs", () => {
  it("are what `npm run docs` writes now", async () => {
    await buildDocs("docs", out);
    for (const file of GENERATED_FILES) {
      const committed = readFileSync(path.join("docs", file), "utf8");
      expect(committed, `docs/${file} has no generated part: run npm run docs`).toContain(GENERATED_MARKER);
      expect(readFileSync(path.join(out, file), "utf8"), `docs/${file} is out of date: run npm run docs`).toBe(committed);
    }
  });

  it("cover every endpoint, schema field, error code and command", () => {
    const api = readFileSync("docs/http-api.md", "utf8");
    for (const endpoint of ["### POST /route", "### POST /eval", "### GET /skills", "### GET /skills/{name}", "### GET /healthz", "### GET /readyz"]) expect(api).toContain(endpoint);
    expect(api).toContain("| `k` | integer (1 to 20) | no | How many ranked skills to return (default 3, at most 20). |");
    expect(api).toContain("| `source_path` | string | yes |");
    expect(api).toMatch(/^\| `QUERY_TOO_LONG` \| 400 \| /m);
    const cli = readFileSync("docs/cli.md", "utf8");
    for (const command of ["index", "skills", "show", "route", "fit", "eval", "serve", "expand", "manifests export", "models list", "models pull", "doctor", "hook", "mcp"]) {
      expect(cli).toContain(`## router ${command}\n\n\`\`\`text\nUsage: router ${command} `);
    }
    expect(cli).toMatch(/^\| `SKILL_NOT_FOUND` \| 3 \| /m);
    // What depends on the machine is written as a rule, not as this machine's value.
    expect(cli).toContain("ROUTER_EMBED_WORKERS,");
    expect(cli).not.toContain(homedir());
  });
});
