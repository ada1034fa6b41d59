// An MCP client asks the router which skill fits a request, then reads it: what any MCP host does with `router mcp`.
// Run: npx tsx examples/mcp/find-skill.ts "my pod keeps restarting"   (needs `router` on PATH and an index: `router index data/skills`)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const request = process.argv[2] ?? "my pod keeps restarting with CrashLoopBackOff";
const transport = new StdioClientTransport({ command: "router", args: ["mcp", "--db", process.env.ROUTER_DB ?? "data/router.db"], stderr: "inherit" });
const client = new Client({ name: "find-skill-example", version: "1.0.0" });
await client.connect(transport);

try {
  const found = await client.callTool({ name: "find_skill", arguments: { query: request } });
  const decision = found.structuredContent as { decision: "inject" | "none"; selected: string[] };
  console.log((found.content as { type: string; text: string }[])[0]!.text);

  for (const name of decision.selected) {
    const skill = await client.callTool({ name: "read_skill", arguments: { name } });
    const { body, supporting_files } = skill.structuredContent as { body: string; supporting_files: string[] };
    console.log(`\n--- ${name}: ${body.length} characters to inject, ${supporting_files.length} supporting files ---\n${body}`);
  }
} finally {
  await client.close();
}
