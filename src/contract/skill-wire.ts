import type { SkillMetadata, SkillRecord } from "../store/records.js";
import type { SkillDetail, SkillMetadataWire, SkillSummary } from "./skills.js";

/** A stored skill as every listing answers it, in the wire's snake_case; each risk flag names the skill's file. */
export function toSkillSummary(skill: Pick<SkillRecord, "id" | "name" | "kind" | "format" | "description" | "tokens" | "sourcePath" | "risks">): SkillSummary {
  const risks = skill.risks.map((flag) => ({ rule: flag.rule, file: skill.sourcePath, line: flag.line, excerpt: flag.excerpt }));
  return { id: skill.id, name: skill.name, kind: skill.kind, format: skill.format, description: skill.description, tokens: skill.tokens, source_path: skill.sourcePath, risks };
}

/** A stored skill with `body` exactly what would be injected; the index's own bookkeeping (hash, root, raw body) stays out. */
export function toSkillDetail(skill: SkillRecord): SkillDetail {
  return { ...toSkillSummary(skill), body: skill.injection, metadata: toMetadataWire(skill.metadata), warnings: skill.warnings };
}

function toMetadataWire(metadata: SkillMetadata): SkillMetadataWire {
  const wire: SkillMetadataWire = {
    license: metadata.license,
    compatibility: metadata.compatibility,
    metadata: metadata.metadata,
    allowed_tools: metadata.allowedTools,
    supporting_files: metadata.supportingFiles,
    modules: metadata.modules,
    parameters: metadata.parameters,
    tool_name: metadata.toolName,
    server: metadata.server,
    example_queries: metadata.exampleQueries,
    manifest_file: metadata.manifestFile?.file,
    explicit_only: metadata.explicitOnly,
  };
  // Absent fields stay absent, as JSON has them.
  return Object.fromEntries(Object.entries(wire).filter(([, value]) => value !== undefined)) as SkillMetadataWire;
}
