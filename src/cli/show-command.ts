import { Command } from "commander";
import { createError } from "../errors.js";
import { toSkillDetail } from "../contract/skill-wire.js";
import { getSkill } from "../store/skill-rows.js";
import { dbOption } from "./db-option.js";

export function showCommand(): Command {
  return new Command("show")
    .description("print exactly what would be injected for a skill")
    .argument("<name>", "skill name")
    .addOption(dbOption())
    .option("--json", "print the skill as JSON (the same shape as GET /skills/{name})")
    .action(async (name: string, options: { db: string; json?: boolean }) => {
      const { openIndexForRead } = await import("../store/database.js");
      const db = openIndexForRead(options.db);
      try {
        const skill = getSkill(db, name);
        if (!skill) throw createError("SKILL_NOT_FOUND", `No skill named "${name}" in ${options.db} (see \`router skills\`)`, { name });
        process.stdout.write(options.json ? `${JSON.stringify(toSkillDetail(skill), null, 2)}\n` : `${skill.injection}\n`);
      } finally {
        db.close();
      }
    });
}
