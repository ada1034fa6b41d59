import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { rankedSkillSchema, routeOptionsSchema, routeRequestSchema, routeResultSchema } from "../contract/route.js";
import { skillDetailSchema, type SkillDetail } from "../contract/skills.js";
import type { SkillSource } from "./skill-source.js";
import { findSkillText, readSkillText, similarNames } from "./tool-text.js";

// find_skill answers a route result without what only a person tuning the router reads (shares, signals, timing).
const findSkillOutput = routeResultSchema.pick({ decision: true, selected: true, reason: true, in_scope: true, threshold: true, invoked: true }).extend({
  skills: z
    .array(rankedSkillSchema.pick({ name: true, kind: true, description: true, confidence: true, tokens: true, matched: true, nearest_query: true, negative: true }))
    .describe("Ranked candidates, best first"),
}).shape;

const readSkillOutput = skillDetailSchema.pick({ name: true, kind: true, description: true, tokens: true, body: true, source_path: true }).extend({
  supporting_files: z.array(z.string()).describe("Files of the skill folder (scripts/, references/, assets/), relative to its folder"),
}).shape;

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
        query: routeRequestSchema.shape.query.describe("The user's request, in their own words"),
        k: routeOptionsSchema.shape.k,
      },
      outputSchema: findSkillOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, k }) => {
      const result = await source.route(query, k === undefined ? {} : { k });
      const skills = result.skills.map(({ name, kind, description, confidence, tokens, matched, nearest_query, negative }) => ({
        name,
        kind,
        description,
        confidence,
        tokens,
        matched,
        nearest_query,
        negative,
      }));
      const structuredContent = {
        decision: result.decision,
        selected: result.selected,
        reason: result.reason,
        in_scope: result.in_scope,
        threshold: result.threshold,
        invoked: result.invoked,
        skills,
      };
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
    source_path: skill.source_path,
    supporting_files: skill.metadata.supporting_files ?? [],
  };
}
