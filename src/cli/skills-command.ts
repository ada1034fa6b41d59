import { Command } from "commander";
import { toSkillSummary } from "../contract/skill-wire.js";
import { listSkills } from "../store/skill-rows.js";
import { dbOption } from "./db-option.js";

export function skillsCommand(): Command {
  return new Command("skills")
    .description("list the indexed skills")
    .addOption(dbOption())
    .option("--json", "print JSON (the same shape as GET /skills)")
    .action(async (options: { db: string; json?: boolean }) => {
      // SQLite loads only when a command reads an index, never for --help.
      const { openIndexForRead } = await import("../store/database.js");
      const db = openIndexForRead(options.db);
      try {
        const skills = listSkills(db);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(skills.map(toSkillSummary), null, 2)}\n`);
          return;
        }
        const nameWidth = Math.min(48, Math.max(4, ...skills.map((skill) => skill.name.length)));
        const width = process.stdout.columns ?? 120;
        for (const skill of skills) {
          const head = `${skill.name.padEnd(nameWidth)}  ${skill.kind.padEnd(5)}  ${String(skill.tokens).padStart(6)} tok  `;
          const room = Math.max(20, width - head.length);
          const description = skill.description.replace(/\s+/g, " ");
          process.stdout.write(`${head}${description.length > room ? `${description.slice(0, room - 1)}…` : description}\n`);
        }
        process.stderr.write(`${skills.length} skills in ${options.db}\n`);
      } finally {
        db.close();
      }
    });
}
