// Writes the agent's tools as JSON for the router: npx tsx examples/ai-sdk/export-tools.ts > tools.json && router index tools.json
import { toolDefinitions, tools } from "./tools.js";

process.stdout.write(`${JSON.stringify(await toolDefinitions(tools), null, 2)}\n`);
