// The risky-skill rules on real collections: false flags where no skill is hostile, catches and misses where some are;
// then on the held-back lures (test/skills/held-back-lures.ts, written before the rules were reworked) and their honest
// look-alikes; then the time the rules take to read the whole corpus. Reads only ../shared/corpus/skills, through the
// same loader `router index` uses (src/skills/load-skills.ts), so what it counts is what an index run would flag.
// Usage: npx tsx bench/risky-flags.ts
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { loadSkills } from "../src/skills/load-skills.js";
import { RISK_RULE_SPECS } from "../src/skills/risk-rule-data.js";
import { scanRisks } from "../src/skills/risk-scan.js";
import type { RiskyReport } from "../src/skills/types.js";
import { HELD_BACK_HONEST, HELD_BACK_LURES } from "../test/skills/held-back-lures.js";

const CORPUS = "../shared/corpus/skills";
// Collections curated by their authors: every flag there is a false flag (target: none).
const CURATED = ["anthropics__skills", "openai__skills", "obra__superpowers", "K-Dense-AI__claude-scientific-skills", "wshobson__agents"];
// Aggregated collections, honest but not hand-checked: their flags are listed to be read (offensive-security skills
// that open reverse shells on a target are among them), not counted as right or wrong.
const AGGREGATED = ["alirezarezvani__claude-skills", "sickn33__antigravity-awesome-skills"];
const HOSTILE = "openclaw__skills";
// Labelled by hand: the openclaw folders whose SKILL.md has the user or agent download and run a program (AuthTool.exe,
// PolymarketAuth.exe, ClawdAuthenticatorTool.exe, openclawcli.zip with its password, a glot.io paste run in a terminal,
// base64 piped to bash), found by searching for those names, passwords and paste sites and reading each hit.
const LURES = [
  "base-agent",
  "bybit-agent",
  "clawhub-2",
  "clawhubcli",
  "clawwhub",
  "linkedin-job-application",
  "poly",
  "polym",
  "polymarket-assistant",
  "polymarket-bot",
  "polymarket-hyperliquid-trading",
  "polymarket-trading-2",
  "polymarketagent",
  "polymarketcli",
  "proxy-scrap",
  "reddit-trends",
  "twittertrends",
  "update",
  "updater",
  "xtrends",
  "yahoofinance",
  "youtube-summarize",
  "youtube-thumbnail-grabber",
  "youtube-video-downloader",
];
// A skill scanner's test skills, shipped in the collection (their scripts were not copied into the corpus).
const SCANNER_TESTS = [
  "evasive-01-string-concat",
  "evasive-02-encoded",
  "evasive-03-prompt-subtle",
  "evasive-04-timebomb",
  "evasive-05-alias-chain",
  "evasive-06-unicode-injection",
  "evasive-07-sandbox-detect",
  "evasive-08-reverse-shell",
  "evasive-09-python-pickle",
  "evasive-10-roleplay",
  "evasive-11-polyglot-json",
  "evasive-12-multi-stage",
  "malicious-skill",
];

/**
 * Flagged skills of a collection by folder name, and how many skills it holds. Each folder is read on its own: read
 * together, skills sharing a name (openclaw has many copies of one lure) would be one skill, the others skipped unread.
 */
async function flaggedIn(collection: string): Promise<{ skills: number; flagged: Map<string, RiskyReport> }> {
  const root = path.join(CORPUS, collection);
  const flagged = new Map<string, RiskyReport>();
  let skills = 0;
  for (const folder of readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    const loaded = await loadSkills([path.join(root, folder.name)]);
    skills += loaded.skills.length;
    for (const report of loaded.risky) flagged.set(folder.name, report);
  }
  return { skills, flagged };
}

const describe = (report: RiskyReport) => [...new Set(report.flags.map((flag) => flag.rule))].join(", ");
const firstFlag = (report: RiskyReport) => `line ${report.flags[0]!.line}: ${report.flags[0]!.excerpt}`;

function listCatchesAndMisses(label: string, folders: string[], flagged: Map<string, RiskyReport>): number {
  const caught = folders.filter((folder) => flagged.has(folder));
  console.log(`\n${label}: ${caught.length} of ${folders.length} caught`);
  for (const folder of folders) {
    const report = flagged.get(folder);
    console.log(report ? `  caught  ${folder}  (${describe(report)}; ${firstFlag(report)})` : `  missed  ${folder}`);
  }
  return caught.length;
}

let falseFlags = 0;
let curatedSkills = 0;
for (const collection of CURATED) {
  const { skills, flagged } = await flaggedIn(collection);
  falseFlags += flagged.size;
  curatedSkills += skills;
  console.log(`${collection}: ${flagged.size} false flags in ${skills} skills`);
  for (const [folder, report] of flagged) for (const flag of report.flags) console.log(`  ${folder}/SKILL.md:${flag.line}  ${flag.rule}: ${flag.excerpt}`);
}
for (const collection of AGGREGATED) {
  const { skills, flagged } = await flaggedIn(collection);
  console.log(`${collection}: ${flagged.size} flagged in ${skills} skills (not labelled)`);
  for (const [folder, report] of flagged) console.log(`  ${folder}  (${describe(report)}; ${firstFlag(report)})`);
}

const hostile = await flaggedIn(HOSTILE);
const lures = listCatchesAndMisses(`${HOSTILE}, download-and-run lures`, LURES, hostile.flagged);
const scanner = listCatchesAndMisses(`${HOSTILE}, scanner test skills`, SCANNER_TESTS, hostile.flagged);
const others = [...hostile.flagged].filter(([folder]) => !LURES.includes(folder) && !SCANNER_TESTS.includes(folder));
console.log(`\n${HOSTILE}, other flagged skills (neither list): ${others.length} of ${hostile.skills} skills`);
for (const [folder, report] of others) console.log(`  ${folder}  (${describe(report)}; ${firstFlag(report)})`);

// The held-back lures, by family, and the honest look-alikes written beside them.
const families = new Map<string, { caught: number; of: number }>();
const missedLures: string[] = [];
for (const lure of HELD_BACK_LURES) {
  const family = families.get(lure.family) ?? { caught: 0, of: 0 };
  families.set(lure.family, family);
  family.of++;
  if (scanRisks(lure.text).length > 0) family.caught++;
  else missedLures.push(`  missed  ${lure.family}: ${JSON.stringify(lure.text)}`);
}
const heldBackCaught = [...families.values()].reduce((sum, family) => sum + family.caught, 0);
console.log(`\nheld-back lures: ${heldBackCaught} of ${HELD_BACK_LURES.length} flagged`);
for (const [name, family] of families) console.log(`  ${name}: ${family.caught} of ${family.of}`);
for (const missed of missedLures) console.log(missed);
const flaggedHonest = HELD_BACK_HONEST.map((text) => ({ text, flags: scanRisks(text) })).filter((each) => each.flags.length > 0);
console.log(`held-back honest look-alikes flagged: ${flaggedHonest.length} of ${HELD_BACK_HONEST.length}`);
for (const { text, flags } of flaggedHonest) console.log(`  flagged  ${flags.map((flag) => flag.rule).join(", ")}: ${JSON.stringify(text)}`);

// How long the rules take to read every SKILL.md of the corpus (what a first index run, or one after the rules change,
// pays; a run that changes nothing reuses stored flags): CPU time, median of 3.
const texts = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((collection) =>
    readdirSync(path.join(CORPUS, collection.name), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((folder) => path.join(CORPUS, collection.name, folder.name, "SKILL.md")),
  )
  .flatMap((file) => {
    try {
      return [readFileSync(file, "utf8")];
    } catch {
      return [];
    }
  });
const scanTimes = [0, 1, 2].map(() => {
  const start = process.cpuUsage();
  for (const text of texts) scanRisks(text);
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
});
const megabytes = texts.reduce((sum, text) => sum + text.length, 0) / 1e6;
console.log(`\nscan time: ${[...scanTimes].sort((a, b) => a - b)[1]!.toFixed(0)} ms CPU for ${texts.length} SKILL.md (${megabytes.toFixed(1)} MB), median of 3`);

// A hostile file can be one long line built to make the rules backtrack: each rule's examples (and their halves)
// repeated into 100 KB lines, the slowest reported. Every window a rule reads is bounded, so this stays linear.
let slowest = { ms: 0, text: "" };
for (const example of RISK_RULE_SPECS.flatMap((spec) => [...spec.examples.flagged, ...spec.examples.notFlagged])) {
  const flat = example.replace(/\n/g, " ");
  for (const piece of [flat, flat.slice(0, Math.ceil(flat.length / 2)), flat.slice(Math.floor(flat.length / 2))]) {
    const line = `${piece} `.repeat(Math.ceil(100_000 / (piece.length + 1)));
    const start = performance.now();
    scanRisks(line);
    const ms = performance.now() - start;
    if (ms > slowest.ms) slowest = { ms, text: piece };
  }
}
console.log(`slowest hostile 100 KB line: ${slowest.ms.toFixed(0)} ms (${JSON.stringify(slowest.text).slice(0, 80)} repeated)`);

console.log(`\nfalse flags on the curated collections: ${falseFlags} in ${curatedSkills} skills (target 0)`);
console.log(`lures caught: ${lures} of ${LURES.length} (target all); scanner test skills caught: ${scanner} of ${SCANNER_TESTS.length} (9 hold no instruction in SKILL.md)`);
console.log(
  `held-back lures flagged: ${heldBackCaught} of ${HELD_BACK_LURES.length} (${((100 * heldBackCaught) / HELD_BACK_LURES.length).toFixed(1)}%, target >= 95%); honest look-alikes flagged: ${flaggedHonest.length} of ${HELD_BACK_HONEST.length} (target 0)`,
);
