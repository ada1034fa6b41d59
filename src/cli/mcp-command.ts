import { fileURLToPath } from "node:url";
import { Command, Option } from "commander";
import type { SkillSource } from "../mcp/skill-source.js";
import { VERSION } from "../version.js";
import { modelOptions } from "../config/model-options.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";

const ANSWER_GRACE_MS = 5_000;
// The `router` CLI this command runs in: feedback is applied by a `router feedback apply` child of it.
const CLI = fileURLToPath(new URL("./main.js", import.meta.url));
// One JSON-RPC message: a query of 8,000 characters is at most a few tens of kilobytes.
const MAX_LINE_BYTES = 1024 * 1024;

interface McpOptions {
  url?: string;
  apiKey?: string;
}

export function mcpCommand(): Command {
  return (
    addSettingOptions(new Command("mcp").description("serve the router to MCP clients over stdio: tools find_skill(query), read_skill(name) and report_skill(query, skill)"), ["db"])
      .addOption(new Option("--url <url>", "use a running `router serve` instead of opening the index in this process"))
      // The client sends ROUTER_API_KEY by itself (src/client): the flag only overrides it.
      .addOption(new Option("--api-key <key>", "API key of the router at --url (default: ROUTER_API_KEY, which keeps it out of `ps`)"))
      .addHelpText(
        "after",
        `
stdout carries only MCP messages; logs go to stderr. Exit codes: 0 when the client closes stdin,
3 when the index does not exist, 1 when it cannot be loaded.

A read_skill after find_skill reports the skill read as the one used for that request (client "mcp");
report_skill reports any other answer. With --db, this process folds what it stored into the index within
seconds (a \`router feedback apply\` child); with --url, the router does.

Claude Code:     claude mcp add skill-router -- router mcp --db /abs/path/router.db
Any MCP client:  {"mcpServers": {"skill-router": {"command": "router", "args": ["mcp", "--db", "/abs/path/router.db"]}}}`,
      )
      .action(async (options: McpOptions, command: Command) => {
        const { settings, configFile } = await settingsOf(command);
        // The protocol owns stdout: a stray console.log from any library would corrupt the stream.
        console.log = console.info = console.debug = console.error;
        const [{ StdioServerTransport }, { createRouterClient }, { AnsweringTransport }, { boundedLines }, { createMcpServer }, { localSkillSource, MCP_CLIENT_NAME, remoteSkillSource }] =
          await Promise.all([
            import("@modelcontextprotocol/sdk/server/stdio.js"),
            import("../client/router-client.js"),
            import("../mcp/answering-transport.js"),
            import("../mcp/bounded-lines.js"),
            import("../mcp/mcp-server.js"),
            import("../mcp/skill-source.js"),
          ]);
        // Feedback kept in a shared store (ROUTER_FEEDBACK_URL) is folded in by `router index`, not by this process.
        const feedbackStore = options.url || !settings.feedbackUrl ? undefined : await (await import("../feedback/create-feedback-store.js")).createFeedbackStore(settings, { waitMs: 0 });
        const feedbackApplier = options.url || feedbackStore ? undefined : await localFeedbackApplier(settings.db, configFile);
        const source: SkillSource = options.url
          ? remoteSkillSource(createRouterClient({ url: options.url, clientName: MCP_CLIENT_NAME, ...(options.apiKey ? { apiKey: options.apiKey } : {}) }))
          : await localSkillSource(settings.db, {
              models: modelOptions(settings),
              skillsRoot: settings.skillsRoot,
              ...(feedbackApplier ? { applyFeedback: () => feedbackApplier.schedule() } : {}),
              ...(feedbackStore ? { feedbackStore } : {}),
            });
        const server = createMcpServer(source, VERSION, (line) => process.stderr.write(`skill-router MCP: ${line}\n`));
        const transport = new AnsweringTransport(new StdioServerTransport(process.stdin.pipe(boundedLines(MAX_LINE_BYTES)), process.stdout));
        await server.connect(transport);
        process.stderr.write(`skill-router MCP server on stdio, reading the ${source.origin}\n`);
        await new Promise<void>((resolve) => {
          process.stdin.once("end", resolve);
          process.stdin.once("close", resolve);
          // The transport may close on its own (stdout gone, say): then there is nobody left to answer.
          transport.closed().then(resolve);
          process.once("SIGINT", resolve);
          process.once("SIGTERM", resolve);
        });
        // A cancelled request gets no answer: wait for the others a bounded time.
        await Promise.race([transport.answered(), new Promise((resolve) => setTimeout(resolve, ANSWER_GRACE_MS).unref())]);
        await server.close();
        feedbackApplier?.close();
        await source.close();
      })
  );
}

/** Folds feedback this process stores into the index in a `router feedback apply` child; its log lines go to stderr. The router in this process picks up the new version before its next call. */
async function localFeedbackApplier(db: string, configFile: string | undefined) {
  const [{ createFeedbackApplier }, { createLogger }] = await Promise.all([import("../server/feedback-applier.js"), import("../server/logger.js")]);
  return createFeedbackApplier({ cli: CLI, db, ...(configFile ? { configFile } : {}), logger: createLogger("info", process.stderr), onIndexed: async () => undefined });
}
