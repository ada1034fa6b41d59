import { z } from "zod";
import { skillKindSchema } from "./route.js";

// What `GET /skills`, `GET /skills/{name}`, `router skills --json`, `router show --json` and MCP `read_skill` answer.

export const riskFlagSchema = z
  .object({
    rule: z.string().meta({ description: "The risky-skill rule broken (docs/formats.md lists them), e.g. download-and-run, credential-exfiltration." }),
    file: z.string().meta({ description: "The skill's source file (for a tool, its JSON file and position)." }),
    line: z.number().int().meta({ description: "1-based line in that file." }),
    excerpt: z.string().meta({ description: "What matched, cut short." }),
  })
  .meta({ id: "RiskFlag" });

export const skillSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: skillKindSchema,
    format: z.enum(["agent-skill", "skill-md", "openai-function", "bare-function", "mcp-tool", "eval-set"]),
    description: z.string(),
    tokens: z.number().int().meta({ description: "Tokens injecting it costs." }),
    source_path: z.string().meta({ description: "Where the skill is served from (its indexed root, or as ROUTER_SKILLS_ROOT re-bases it)." }),
    risks: z.array(riskFlagSchema).meta({ description: "What the risky-skill rules flagged at index time (`router index --risky warn`); empty for most skills." }),
  })
  .meta({ id: "SkillSummary" });

export const skillMetadataSchema = z
  .object({
    license: z.string().optional(),
    compatibility: z.string().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    allowed_tools: z.array(z.string()).optional(),
    supporting_files: z.array(z.string()).optional().meta({ description: "Files under scripts/, references/ and assets/, relative to the skill folder." }),
    modules: z.array(z.string()).optional(),
    parameters: z.unknown().optional().meta({ description: "Tools: the JSON schema of the arguments." }),
    tool_name: z.string().optional().meta({ description: "Tools: the name the agent calls (the routing name may carry a server prefix)." }),
    server: z.string().optional(),
    example_queries: z.array(z.string()).optional(),
    manifest_file: z.string().optional().meta({ description: "The hand-written routing manifest beside the skill, when there is one." }),
    explicit_only: z
      .string()
      .optional()
      .meta({ description: "Why the skill is injected only when a request calls it by name ($name, /name or its bare name): its frontmatter, its prose, or its manifest file." }),
  })
  .meta({ id: "SkillMetadata" });

export const skillDetailSchema = skillSummarySchema
  .extend({
    body: z.string().meta({ description: "Exactly what would be injected." }),
    metadata: skillMetadataSchema,
    warnings: z.array(z.string()),
  })
  .meta({ id: "SkillDetail" });

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ example: "QUERY_EMPTY" }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: "Error" });

export type SkillSummary = z.infer<typeof skillSummarySchema>;
export type RiskFlagWire = z.infer<typeof riskFlagSchema>;
export type SkillDetail = z.infer<typeof skillDetailSchema>;
export type SkillMetadataWire = z.infer<typeof skillMetadataSchema>;
export type ErrorBody = z.infer<typeof errorSchema>;
