import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { readManifests } from "../store/manifest-rows.js";
import { getSkill, listSkills } from "../store/skill-rows.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";

export function manifestsCommand(): Command {
  const exportCommand = addSettingOptions(
    new Command("export")
      .description("write every skill's routing manifest as a YAML file (<dir>/<skill>.yaml) for review; one saved as router-manifest.yaml beside its skill pins it")
      .argument("<dir>", "folder to write into (created when missing; files of the same name are replaced)"),
    ["db"],
  )
    .option("--json", "print the list of written files as JSON")
    .action(async (dir: string, options: { json?: boolean }, command: Command) => {
      const { settings } = await settingsOf(command);
      const { manifestFileName, manifestYaml } = await import("../expand/manifest-export.js");
      const { openIndexForRead } = await import("../store/database.js");
      const db = openIndexForRead(settings.db);
      const written: { skill: string; source: string; file: string }[] = [];
      try {
        const manifests = readManifests(db);
        const taken = new Set<string>();
        mkdirSync(dir, { recursive: true });
        for (const summary of listSkills(db, settings.skillsRoot)) {
          const stored = manifests.get(summary.id);
          if (!stored) continue;
          const skill = getSkill(db, summary.name, settings.skillsRoot)!;
          const file = path.join(dir, manifestFileName(skill.name, taken));
          writeFileSync(file, manifestYaml(skill, stored));
          written.push({ skill: skill.name, source: stored.source, file });
        }
      } finally {
        db.close();
      }
      process.stdout.write(options.json ? `${JSON.stringify(written, null, 2)}\n` : `Wrote ${written.length} manifests to ${dir}\n`);
    });
  return new Command("manifests").description("review routing manifests").addCommand(exportCommand);
}
