import { Command } from "commander";
import { toSkillSummary } from "../contract/skill-wire.js";
import { listSkills } from "../store/skill-rows.js";
import { flaggedRules } from "../skills/risk-scan.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";

export function skillsCommand(): Command {
  return addSettingOptions(new Command("skills").description("list the indexed skills"), ["db"])
    .option("--json", "print JSON (the same shape as GET /skills)")
    .action(async (options: { json?: boolean }, command: Command) => {
      const { settings } = await settingsOf(command);
      // SQLite loads only when a command reads an index, never for --help.
      const { openIndexForRead } = await import("../store/database.js");
      const db = openIndexForRead(settings.db);
      try {
        const skills = listSkills(db, settings.skillsRoot);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(skills.map(toSkillSummary), null, 2)}\n`);
          return;
        }
        const nameWidth = Math.min(48, Math.max(4, ...skills.map((skill) => skill.name.length)));
        const width = process.stdout.columns ?? 120;
        for (const skill of skills) {
          const head = `${skill.name.padEnd(nameWidth)}  ${skill.kind.padEnd(5)}  ${String(skill.tokens).padStart(6)} tok  `;
          const room = Math.max(20, width - head.length);
          // A flagged skill says so before its description, which the flags may be about.
          const risky = skill.risks.length > 0 ? `[risky: ${flaggedRules(skill.risks).join(", ")}] ` : "";
          const description = risky + skill.description.replace(/\s+/g, " ");
          process.stdout.write(`${head}${description.length > room ? `${description.slice(0, room - 1)}…` : description}\n`);
        }
        const flagged = skills.filter((skill) => skill.risks.length > 0).length;
        process.stderr.write(`${skills.length} skills in ${settings.db}${flagged > 0 ? `; ${flagged} flagged risky (\`router show <name>\` says where)` : ""}\n`);
      } finally {
        db.close();
      }
    });
}
