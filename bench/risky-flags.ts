// The risky-skill rules on real collections: false flags where no skill is hostile, catches and misses where some are.
// Reads only ../shared/corpus/skills/{anthropics__skills,openai__skills,obra__superpowers,openclaw__skills}, through the
// same loader `router index` uses (src/skills/load-skills.ts), so what it counts is what an index run would flag.
// Usage: npx tsx bench/risky-flags.ts
import { readdirSync } from "node:fs";
import path from "node:path";
import { loadSkills } from "../src/skills/load-skills.js";
import type { RiskyReport } from "../src/skills/types.js";

const CORPUS = "../shared/corpus/skills";
// Collections curated by their authors: every flag there is a false flag (target: none).
const CURATED = ["anthropics__skills", "openai__skills", "obra__superpowers"];
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
for (const collection of CURATED) {
  const { skills, flagged } = await flaggedIn(collection);
  falseFlags += flagged.size;
  console.log(`${collection}: ${flagged.size} false flags in ${skills} skills`);
  for (const [folder, report] of flagged) for (const flag of report.flags) console.log(`  ${folder}/SKILL.md:${flag.line}  ${flag.rule}: ${flag.excerpt}`);
}

const hostile = await flaggedIn(HOSTILE);
const lures = listCatchesAndMisses(`${HOSTILE}, download-and-run lures`, LURES, hostile.flagged);
const scanner = listCatchesAndMisses(`${HOSTILE}, scanner test skills`, SCANNER_TESTS, hostile.flagged);
const others = [...hostile.flagged].filter(([folder]) => !LURES.includes(folder) && !SCANNER_TESTS.includes(folder));
console.log(`\n${HOSTILE}, other flagged skills (neither list): ${others.length} of ${hostile.skills} skills`);
for (const [folder, report] of others) console.log(`  ${folder}  (${describe(report)}; ${firstFlag(report)})`);

console.log(`\nfalse flags on the curated collections: ${falseFlags} (target 0)`);
console.log(`lures caught: ${lures} of ${LURES.length} (target all); scanner test skills caught: ${scanner} of ${SCANNER_TESTS.length} (target 10)`);
