import { Command } from "commander";
import { createError } from "../errors.js";
import { toSkillDetail } from "../contract/skill-wire.js";
import { getSkill } from "../store/skill-rows.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";

export function showCommand(): Command {
  return addSettingOptions(new Command("show").description("print exactly what would be injected for a skill").argument("<name>", "skill name"), ["db"])
    .option("--json", "print the skill as JSON (the same shape as GET /skills/{name})")
    .action(async (name: string, options: { json?: boolean }, command: Command) => {
      const { settings } = await settingsOf(command);
      const { openIndexForRead } = await import("../store/database.js");
      const db = openIndexForRead(settings.db);
      try {
        const skill = getSkill(db, name, settings.skillsRoot);
        if (!skill) throw createError("SKILL_NOT_FOUND", `No skill named "${name}" in ${settings.db} (see \`router skills\`)`, { name });
        // The flags go to stderr: stdout stays exactly what would be injected.
        for (const flag of options.json ? [] : skill.risks) process.stderr.write(`risky: ${skill.sourcePath}:${flag.line}: ${flag.rule}: ${flag.excerpt}\n`);
        process.stdout.write(options.json ? `${JSON.stringify(toSkillDetail(skill), null, 2)}\n` : `${skill.injection}\n`);
      } finally {
        db.close();
      }
    });
}
