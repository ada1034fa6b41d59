import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { HAN_GLOSS_DIR, HAN_GLOSS_FILES } from "./han-gloss-files.js";

const HAN = /\p{Script=Han}/u;
// A word in the table is at most this many characters (longer headwords are idioms no request needs).
const MAX_WORD = 8;
// Characters that mark grammar, not meaning: alone, their first gloss ("finish", "individual", "hold") only adds noise.
const FUNCTION_CHARACTERS = new Set([..."的了个是把被在和与及或也都就还又很吗呢吧啊么着过之其此该每各给让对从向往这那我你他她它们有没不要会能可将于以而并但等所得地些里用来去到说上下中"]);

let table: Map<string, string> | null | undefined;
// Lines read between two turns of the event loop while preloading: about a millisecond's work.
const PRELOAD_SLICE_LINES = 5_000;

/**
 * English for the Chinese words of a text, in order, the other words kept as they are: "帮我重构这个 React 组件"
 * -> "help reconstruct refactoring React component". Words are found by longest match in CC-CEDICT's headwords.
 * Undefined when the text has no Han character, or when the table was not built (`npm run build`).
 */
export function glossHan(text: string): string | undefined {
  if (!HAN.test(text)) return undefined;
  const glosses = loadTable();
  if (!glosses) return undefined;
  const out: string[] = [];
  const characters = [...text];
  for (let at = 0; at < characters.length; ) {
    if (!HAN.test(characters[at]!)) {
      let end = at;
      while (end < characters.length && !HAN.test(characters[end]!)) end++;
      out.push(characters.slice(at, end).join(""));
      at = end;
      continue;
    }
    let length = Math.min(MAX_WORD, characters.length - at);
    for (; length > 1; length--) if (glosses.has(characters.slice(at, at + length).join(""))) break;
    const word = characters.slice(at, at + length).join("");
    const gloss = glosses.get(word);
    if (gloss && !(length === 1 && FUNCTION_CHARACTERS.has(word))) out.push(` ${gloss.replace(/;/g, "")} `);
    at += length;
  }
  return out.join("").replace(/\s+/g, " ").trim();
}

/** Whether the table is there to read (it is built with the package). */
export function hanGlossesAvailable(): boolean {
  return loadTable() !== null;
}

/**
 * Reads the table a slice at a time, handing the event loop back between slices: a server calls it once it serves,
 * so its first Chinese request does not hold every other request while some 120,000 headwords are read.
 */
export async function preloadHanGlosses(): Promise<void> {
  if (table !== undefined) return;
  let text: string;
  try {
    text = await readFile(path.join(HAN_GLOSS_DIR, HAN_GLOSS_FILES.table), "utf8");
  } catch {
    return; // missing: the first Chinese request finds out, as without a preload
  }
  const loading = new Map<string, string>();
  for (let start = 0, lines = 0; start < text.length; lines++) {
    const end = text.indexOf("\n", start);
    addEntry(loading, text.slice(start, end === -1 ? text.length : end));
    start = end === -1 ? text.length : end + 1;
    if (lines % PRELOAD_SLICE_LINES === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  table ??= loading;
}

/** The table, read once on first use: Chinese requests are few in most indexes, and it takes some 20 MB. */
function loadTable(): Map<string, string> | null {
  if (table !== undefined) return table;
  const file = path.join(HAN_GLOSS_DIR, HAN_GLOSS_FILES.table);
  if (!existsSync(file)) return (table = null);
  table = new Map();
  for (const line of readFileSync(file, "utf8").split("\n")) addEntry(table, line);
  return table;
}

/** One line of the table: a headword, a tab, its English. */
function addEntry(glosses: Map<string, string>, line: string): void {
  const tab = line.indexOf("\t");
  if (tab > 0) glosses.set(line.slice(0, tab), line.slice(tab + 1));
}
