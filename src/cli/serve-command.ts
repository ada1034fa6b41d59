import { Command, Option } from "commander";
import { startServer } from "../server/serve.js";
import { dbOption } from "./db-option.js";
import { exitCodeFor } from "./exit-codes.js";

export function serveCommand(): Command {
  return new Command("serve")
    .description("serve the router over HTTP (binds to loopback unless --host says otherwise)")
    .addOption(dbOption())
    .addOption(new Option("--host <host>", "address to bind").env("ROUTER_HOST").default("127.0.0.1"))
    .addOption(new Option("--port <port>", "port to listen on").env("ROUTER_PORT").default("8787").argParser(parsePort))
    .action(async (options: { db: string; host: string; port: number | string }) => {
      const server = await startServer({ db: options.db, host: options.host, port: Number(options.port) });
      process.stderr.write(`router listening on ${server.url} (index ${options.db}), loading...\n`);
      await server.ready;
      if (server.slot.error) {
        process.stderr.write(`error [${server.slot.error.code}]: ${server.slot.error.message}\n`);
        await server.close();
        process.exitCode = exitCodeFor(server.slot.error.code);
        return;
      }
      const status = server.slot.router!.status();
      process.stderr.write(`ready: ${status.skills} skills, index v${status.indexVersion}, ${status.embedder ?? "no embedder"}, fusion: ${status.fusion}\n`);
      const stop = () => {
        process.stderr.write("shutting down\n");
        void server.close().then(() => process.exit(0));
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port "${value}"`);
  return port;
}
