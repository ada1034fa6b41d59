import { createHash } from "node:crypto";

// Renders the OpenAPI document embedded in the page: no CDN, no second request (so it works behind the API key).
const RENDER_SCRIPT = `
const spec = JSON.parse(document.getElementById("spec").textContent);
const el = (tag, text, cls) => { const node = document.createElement(tag); if (text !== undefined) node.textContent = text; if (cls) node.className = cls; return node; };
const resolve = (schema, seen = new Set()) => {
  if (!schema || typeof schema !== "object") return schema;
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop();
    if (seen.has(name)) return { $ref: name };
    return resolve(spec.components.schemas[name], new Set([...seen, name]));
  }
  if (Array.isArray(schema)) return schema.map((item) => resolve(item, seen));
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolve(value, seen)]));
};
const block = (title, schema) => { const box = el("details"); box.append(el("summary", title), el("pre", JSON.stringify(resolve(schema), null, 2))); return box; };
const main = document.getElementById("ops");
document.getElementById("title").textContent = spec.info.title + " " + spec.info.version;
document.getElementById("about").textContent = spec.info.description || "";
for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) {
    const section = el("section");
    const head = el("h2");
    head.append(el("span", method.toUpperCase(), "method " + method), el("code", " " + path));
    section.append(head, el("p", op.summary || ""));
    for (const param of op.parameters || []) section.append(el("p", "parameter " + param.name + " (" + param.in + ")"));
    const body = op.requestBody && op.requestBody.content["application/json"];
    if (body) section.append(block("Request body", body.schema));
    for (const [status, response] of Object.entries(op.responses || {})) {
      const content = response.content && response.content["application/json"];
      section.append(content ? block(status + " " + response.description, content.schema) : el("p", status + " " + response.description));
    }
    main.append(section);
  }
}`;

const SCRIPT_HASH = createHash("sha256").update(RENDER_SCRIPT).digest("base64");

/** The policy that lets exactly the page's own script run and nothing load from elsewhere. */
export const DOCS_CONTENT_SECURITY_POLICY = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'`;

/** A self-contained HTML page that renders `spec` (the OpenAPI document) in the browser. */
export function docsPage(spec: unknown): string {
  // "<" escaped so the JSON can never close its <script> element.
  const json = JSON.stringify(spec).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>skill-router API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
section { border-top: 1px solid #ddd; padding: .5rem 0; }
h2 { font-size: 1.1rem; margin: .5rem 0; }
.method { display: inline-block; min-width: 4rem; font-weight: 700; }
.get { color: #1a6; } .post { color: #26c; }
pre { background: #f6f6f6; padding: .75rem; overflow: auto; font-size: 13px; }
summary { cursor: pointer; }
</style></head>
<body><h1 id="title"></h1><p id="about"></p><p>Machine-readable: <a href="openapi.json">openapi.json</a>.</p><main id="ops"></main>
<script type="application/json" id="spec">${json}</script>
<script>${RENDER_SCRIPT}</script>
</body></html>`;
}
