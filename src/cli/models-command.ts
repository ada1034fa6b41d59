import { Command, Option } from "commander";
import { createError } from "../errors.js";
import { findCatalogueModel, inspectModelFiles, MODEL_CATALOGUE, MODEL_DTYPES, type CatalogueModel, type ModelDtype } from "../models/model-catalogue.js";
import type { PulledFile } from "../models/pull-model.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";
import { createProgress, type Progress } from "./progress.js";

const PROGRESS_MIN_BYTES = 1 << 20;
const MODEL_NAMES = Object.keys(MODEL_CATALOGUE).join(", ");
// `router models pull` with no name: every model but the multilingual embedder (five times MiniLM's size).
const DEFAULT_SET = Object.values(MODEL_CATALOGUE).filter((model) => model.pulledByDefault);

export function modelsCommand(): Command {
  return new Command("models")
    .description("list the models and their files, or pull MiniLM, the multilingual MiniLM and the cross-encoder from the Hugging Face hub")
    .addCommand(listCommand())
    .addCommand(pullCommand());
}

function listCommand(): Command {
  return addSettingOptions(new Command("list").description("show each model, where its files go and which are present"), ["modelsDir"])
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }, command: Command) => {
      const { settings } = await settingsOf(command);
      const { USE_LITE } = await import("../models/use-lite-embedder.js");
      const rows = Object.values(MODEL_CATALOGUE).map((model) => {
        const files = inspectModelFiles(settings.modelsDir, model);
        return { name: model.name, repo: model.repo, role: model.role, folder: files.folder, dtype: files.dtype ?? null, found: files.found, missing: files.missing };
      });
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ offline: { id: USE_LITE.id, dimension: USE_LITE.dimension, available: true }, models: rows }, null, 2)}\n`);
        return;
      }
      const lines = [`offline      ${USE_LITE.id} (built in, always available)`];
      for (const row of rows) {
        lines.push(`${row.name.padEnd(12)} ${row.repo}  ${row.dtype ? `ready (${row.dtype})` : `missing ${row.missing.join(", ")}`}`, `             ${row.folder}`);
      }
      process.stdout.write(`${lines.join("\n")}\n`);
    });
}

function pullCommand(): Command {
  const command = new Command("pull").description("download model files (ONNX, tokenizer, config) from the Hugging Face hub, checking sizes and hashes").argument(
    "[name]",
    `${MODEL_NAMES}, default (${DEFAULT_SET.map((model) => model.name).join(" and ")}) or all (or a repository: ${Object.values(MODEL_CATALOGUE)
      .map((model) => model.repo)
      .join(", ")})`,
    "default",
  );
  return addSettingOptions(command, ["modelsDir", "hubEndpoint"])
    .addOption(new Option("--dtype <dtype>", "which ONNX export").choices(MODEL_DTYPES).default("q8"))
    .option("--revision <revision>", "hub branch, tag or commit", "main")
    .option("--json", "print the result as JSON")
    .option("-q, --quiet", "no progress output")
    .action(async (name: string, options: { dtype: ModelDtype; revision: string; json?: boolean; quiet?: boolean }, command: Command) => {
      const { settings } = await settingsOf(command);
      const { pullModel } = await import("../models/pull-model.js");
      const models = name === "all" ? Object.values(MODEL_CATALOGUE) : name === "default" ? DEFAULT_SET : [findCatalogueModel(name) ?? unknownModel(name)];
      const results: { model: string; repo: string; folder: string; files: PulledFile[] }[] = [];
      for (const model of models) {
        const bars = new Map<string, Progress>();
        const files = await pullModel({
          model,
          dtype: options.dtype,
          modelsDir: settings.modelsDir,
          revision: options.revision,
          endpoint: settings.hubEndpoint,
          ...(settings.hubToken ? { token: settings.hubToken } : {}),
          onProgress: ({ file, done, total }) => {
            // Config and tokenizer files arrive in an instant; only the model file is worth a progress line.
            if (total < PROGRESS_MIN_BYTES) return;
            let bar = bars.get(file);
            if (!bar) bars.set(file, (bar = createProgress(`${model.name} ${file}`, "KiB", process.stderr, !options.quiet && !options.json)));
            bar.update(Math.round(done / 1024), Math.round(total / 1024));
          },
        });
        for (const bar of bars.values()) bar.finish();
        results.push({ model: model.name, repo: model.repo, folder: inspectModelFiles(settings.modelsDir, model, options.dtype).folder, files });
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
        return;
      }
      for (const result of results) {
        const downloaded = result.files.filter((file) => file.status === "downloaded");
        const megabytes = downloaded.reduce((sum, file) => sum + file.bytes, 0) / 1e6;
        process.stdout.write(`${result.model}: ${result.repo} -> ${result.folder}\n`);
        process.stdout.write(`  ${downloaded.length} downloaded (${megabytes.toFixed(1)} MB), ${result.files.length - downloaded.length} already up to date; sizes and hashes checked\n`);
      }
    });
}

function unknownModel(name: string): CatalogueModel {
  throw createError("INVALID_ARGUMENT", `Unknown model "${name}": use ${MODEL_NAMES}, default or all`, { name });
}
