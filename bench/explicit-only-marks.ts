// Every skill the explicit-only rule (src/skills/explicit-only.ts) marks in ../shared/corpus/skills (all collections)
// and ../shared/eval/trigger-dev/skills, with the verdict given by reading each marked sentence by hand. Every SKILL.md
// and skill.md file is parsed on its own with the parser `router index` uses, duplicates of a name included, so a mark
// that indexing would hide behind another skill of the same name is still counted. A mark with no verdict below is
// reported as unchecked, and the run exits 1 while any mark is unchecked or false.
// Usage: npx tsx bench/explicit-only-marks.ts
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { agentSkillParser } from "../src/skills/agent-skill.js";
import { skillMdParser } from "../src/skills/skill-md.js";

const SHARED = path.resolve(import.meta.dirname, "..", "..", "shared");
const ROOTS = ["corpus/skills", "eval/trigger-dev/skills"];

// Read by hand: the sentence (or field) behind each mark, and whether it says the skill is for explicit calls only.
const VERDICTS: Record<string, { right: boolean; why: string }> = {
  "corpus/skills/sickn33__antigravity-awesome-skills/last30days/SKILL.md": { right: true, why: "Claude Code's own switch, set by the author" },
  "corpus/skills/openclaw__skills/human-optimized-frontend/SKILL.md": { right: true, why: "the description limits it to the user invoking it by name" },
  "corpus/skills/openclaw__skills/deliberate-frontend-redesign/SKILL.md": {
    right: true,
    why: "an 'Activation Criteria' section: only when the user asks for a redesign and names this skill",
  },
  "eval/trigger-dev/skills/offer-magic/SKILL.md": { right: true, why: "Claude Code's own switch, set by the author" },
};

function skillFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && (entry.name === "SKILL.md" || entry.name === "skill.md"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

let files = 0;
let unchecked = 0;
let wrong = 0;
for (const root of ROOTS) {
  const marks: string[] = [];
  for (const file of skillFiles(path.join(SHARED, root))) {
    files++;
    const parser = path.basename(file) === "SKILL.md" ? agentSkillParser : skillMdParser;
    const parsed = parser.parse({ path: file, text: readFileSync(file, "utf8"), folderName: path.basename(path.dirname(file)), files: [] });
    for (const skill of parsed.skills) {
      if (!skill.metadata.explicitOnly) continue;
      const key = path.relative(SHARED, file);
      const verdict = VERDICTS[key];
      if (!verdict) unchecked++;
      else if (!verdict.right) wrong++;
      marks.push(`  ${key}\n    ${skill.metadata.explicitOnly}\n    ${verdict ? `${verdict.right ? "right" : "FALSE MARK"}: ${verdict.why}` : "UNCHECKED: read it and add a verdict"}`);
    }
  }
  console.log(`${root}: ${marks.length} marked`);
  for (const mark of marks) console.log(mark);
}
console.log(`${files} skill files read; false marks ${wrong}, unchecked ${unchecked}`);
if (wrong > 0 || unchecked > 0) process.exitCode = 1;
