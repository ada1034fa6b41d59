// Hostile input, both halves: how long files at the size and nesting limits hold up `router index`
// (bench/hostile-index.ts) and 15,000 hostile HTTP requests to `router serve` (bench/hostile-http.ts).
// Writes the "Hostile input" section of bench/RESULTS.md. Usage: npx tsx bench/hostile.ts
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { planEmbedder } from "../src/models/create-embedder.js";
import { runLine } from "./format-figures.js";
import { replaceSections } from "./results-file.js";
import { finishRun, startRun } from "./run-info.js";

const HEADING = "## Hostile input";
const bench = (file: string): string =>
  execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL(file, import.meta.url))], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 });

const started = performance.now();
const run = startRun(planEmbedder().id);
const indexing = bench("./hostile-index.ts");
// The HTTP bench prints its own heading: the section has one.
const http = bench("./hostile-http.ts").replace(/^## .*\n+/, "");
const text = [
  HEADING,
  "",
  "### Indexing one hostile file",
  "",
  "Each file alone in a folder, indexed into an empty index (the embedder and token ranks loaded once, outside the timings).",
  "",
  indexing.trim(),
  "",
  "### Fuzzed HTTP",
  "",
  http.trim(),
  "",
  runLine(finishRun(run, started), "npx tsx bench/hostile.ts"),
  "",
].join("\n");
replaceSections(fileURLToPath(new URL("./RESULTS.md", import.meta.url)), [{ heading: HEADING, text }]);
console.log(text);
