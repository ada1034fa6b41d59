import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { SkillDetail } from "../client/types.js";
import { MAX_QUERY_CHARS } from "../route/query-limit.js";
import type { SkillSource } from "./skill-source.js";
import { findSkillText, readSkillText, similarNames } from "./tool-text.js";

const rankedSkill = z.object({
  name: z.string(),
  kind: z.enum(["skill", "tool"]),
  description: z.string(),
  confidence: z.number().describe("Calibrated probability that injecting this skill is right"),
  tokens: z.number().int().describe("What injecting it costs"),
  matched: z.object({ keywords: z.array(z.string()), phrases: z.array(z.string()) }),
  nearest_query: z.string().nullable().describe("The example request closest to the query"),
  negative: z.string().nullable().describe("A near-miss request this skill is not for, when it penalised the skill"),
});

const findSkillOutput = {
  decision: z.enum(["inject", "none"]),
  selected: z.array(z.string()).describe("The skills to use: one, or none"),
  reason: z.string().nullable().describe("Why none: no_evidence, below_threshold, small_margin, no_candidates, empty_index"),
  in_scope: z.number().describe("Probability that some skill applies at all"),
  threshold: z.number(),
  skills: z.array(rankedSkill).describe("Ranked candidates, best first"),
};

const readSkillOutput = {
  name: z.string(),
  kind: z.enum(["skill", "tool"]),
  description: z.string(),
  tokens: z.number().int(),
  body: z.string().describe("Exactly what the router would inject"),
  source_path: z.string(),
  supporting_files: z.array(z.string()).describe("Files of the skill folder (scripts/, references/, assets/), relative to its folder"),
};

/** The router as MCP tools: find_skill ranks skills for a request, read_skill returns one to follow. */
export function createMcpServer(source: SkillSource, version: string): McpServer {
  const server = new McpServer({ name: "skill-router", version });

  server.registerTool(
    "find_skill",
    {
      title: "Find the skill for a request",
      description:
        "Ask the skill router which installed skill fits a user request. Returns the decision (inject one skill, or none), and the ranked candidates with confidence and the evidence behind it. Call read_skill on the selected skill to get its instructions.",
      inputSchema: {
        query: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe("The user's request, in their own words"),
        k: z.number().int().min(1).max(20).optional().describe("How many ranked skills to return (default 3)"),
      },
      outputSchema: findSkillOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, k }) => {
      const result = await source.route(query, k === undefined ? {} : { k });
      const skills = result.skills.map(({ name, kind, description, confidence, tokens, matched, nearest_query, negative }) => ({ name, kind, description, confidence, tokens, matched, nearest_query, negative }));
      const structuredContent = { decision: result.decision, selected: result.selected, reason: result.reason, in_scope: result.in_scope, threshold: result.threshold, skills };
      return { content: [{ type: "text", text: findSkillText(result) }], structuredContent };
    },
  );

  server.registerTool(
    "read_skill",
    {
      title: "Read a skill",
      description: "Return a skill's instructions, exactly as the router would inject them, and the list of its supporting files.",
      inputSchema: { name: z.string().min(1).max(200).describe("The skill's name, as find_skill returned it") },
      outputSchema: readSkillOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ name }) => {
      const skill = await source.skill(name);
      if (!skill) {
        const similar = similarNames(name, await source.names());
        const hint = similar.length > 0 ? ` Similar names: ${similar.join(", ")}.` : " Use find_skill to search by request.";
        return { content: [{ type: "text", text: `No skill named "${name}".${hint}` }], isError: true };
      }
      return { content: [{ type: "text", text: readSkillText(skill) }], structuredContent: readSkillResult(skill) };
    },
  );
  return server;
}

function readSkillResult(skill: SkillDetail) {
  return {
    name: skill.name,
    kind: skill.kind,
    description: skill.description,
    tokens: skill.tokens,
    body: skill.body,
    source_path: skill.sourcePath,
    supporting_files: skill.metadata.supportingFiles ?? [],
  };
}
