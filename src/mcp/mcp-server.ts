import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { feedbackRequestSchema, feedbackResultSchema } from "../contract/feedback.js";
import { rankedSkillSchema, routeOptionsSchema, routeRequestSchema, routeResultSchema } from "../contract/route.js";
import { skillDetailSchema, type SkillDetail } from "../contract/skills.js";
import { recentFinds } from "./recent-finds.js";
import type { SkillSource } from "./skill-source.js";
import { feedbackText, findSkillText, readSkillText, similarNames } from "./tool-text.js";

// find_skill answers a route result without what only a person tuning the router reads (shares, signals, timing).
const findSkillOutput = routeResultSchema.pick({ decision: true, selected: true, offer: true, reason: true, in_scope: true, threshold: true, invoked: true, route_id: true }).extend({
  skills: z
    .array(rankedSkillSchema.pick({ name: true, kind: true, description: true, confidence: true, tokens: true, matched: true, nearest_query: true, negative: true, risks: true }))
    .describe("Ranked candidates, best first"),
}).shape;

const readSkillOutput = skillDetailSchema.pick({ name: true, kind: true, description: true, tokens: true, body: true, source_path: true, risks: true }).extend({
  supporting_files: z.array(z.string()).describe("Files of the skill folder (scripts/, references/, assets/), relative to its folder"),
}).shape;

/**
 * The router as MCP tools: find_skill ranks skills for a request, read_skill returns one to follow, report_skill says
 * which skill a request needed. A read_skill after find_skill reports itself: the skill read is the one used for that
 * request. `log` takes one line for stderr.
 */
export function createMcpServer(source: SkillSource, version: string, log: (line: string) => void = () => undefined): McpServer {
  const server = new McpServer({ name: "skill-router", version });
  const finds = recentFinds();

  server.registerTool(
    "find_skill",
    {
      title: "Find the skill for a request",
      description:
        "Ask the skill router which installed skill fits a user request. Returns the decision: inject (one skill fits: call read_skill on it), offer (a short list of skills that may fit: read their descriptions, and call read_skill on the one that fits the request, or on none), or none; with the ranked candidates, their confidence and the evidence behind it. A skill flagged risky carries a warning: do what it asks only with the user's consent.",
      inputSchema: {
        query: routeRequestSchema.shape.query.describe("The user's request, in their own words"),
        k: routeOptionsSchema.shape.k,
      },
      outputSchema: findSkillOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, k }) => {
      const result = await source.route(query, k === undefined ? {} : { k });
      const skills = result.skills.map(({ name, kind, description, confidence, tokens, matched, nearest_query, negative, risks }) => ({
        name,
        kind,
        description,
        confidence,
        tokens,
        matched,
        nearest_query,
        negative,
        risks,
      }));
      const structuredContent = {
        decision: result.decision,
        selected: result.selected,
        offer: result.offer,
        reason: result.reason,
        in_scope: result.in_scope,
        threshold: result.threshold,
        invoked: result.invoked,
        route_id: result.route_id,
        skills,
      };
      finds.found({ query, route_id: result.route_id }, result.invoked);
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
      const found = finds.takeUnread();
      // The model reads the skill it will follow for the request it just asked about: that answers the request.
      if (found) {
        await source.feedback({ query: found.query, skill: skill.name, route_id: found.route_id }).then(
          (result) => log(`reported ${skill.name} as used for "${found.query}": ${feedbackText(result)}`),
          (error: Error) => log(`could not report ${skill.name} as used for "${found.query}": ${error.message}`),
        );
      }
      return { content: [{ type: "text", text: readSkillText(skill) }], structuredContent: readSkillResult(skill) };
    },
  );

  server.registerTool(
    "report_skill",
    {
      title: "Report which skill a request needed",
      description:
        "Tell the skill router which skill should have answered a user request, or null when no skill should have: it learns from each report. Reading a skill with read_skill after find_skill reports that skill already; call this when the answer was wrong in another way (no skill fitted, or another one did).",
      inputSchema: {
        query: feedbackRequestSchema.shape.query.describe("The user's request, as it was given to find_skill"),
        skill: feedbackRequestSchema.shape.skill.describe("The skill that should have been used for it, or null when no skill should have"),
        route_id: feedbackRequestSchema.shape.route_id.describe("The route_id of find_skill's answer; by default that of this session's last find_skill for the same query"),
      },
      outputSchema: feedbackResultSchema.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ query, skill, route_id }) => {
      const routeId = route_id ?? finds.routeIdOf(query);
      const result = await source.feedback({ query, skill, ...(routeId === undefined ? {} : { route_id: routeId }) });
      return { content: [{ type: "text", text: feedbackText(result) }], structuredContent: result };
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
    risks: skill.risks,
    supporting_files: skill.metadata.supporting_files ?? [],
  };
}
