import { Command } from "commander";
import { addSettingOptions, SERVE_FLAGS, settingsOf } from "../config/setting-options.js";
import { isLoopback, maskSecrets } from "../config/settings.js";
import { EXIT } from "./exit-codes.js";

export function serveCommand(): Command {
  const command = new Command("serve").description(
    "serve the router over HTTP: JSON logs on stdout, /metrics, /docs; binds to loopback unless --host says otherwise. " +
      "Settings come from flags, then ROUTER_* variables, then --config FILE, then defaults; the API key only from ROUTER_API_KEY or the config file, never a flag. " +
      "SIGTERM or SIGINT drains in-flight requests, a second one exits at once.",
  );
  return addSettingOptions(command, SERVE_FLAGS).action(async () => {
    const { settings, sources, configFile } = await settingsOf(command);
    const [{ createLogger }, { startServer }, { collectGarbageSooner }] = await Promise.all([import("../server/logger.js"), import("../server/serve.js"), import("../server/serving-heap.js")]);
    collectGarbageSooner();
    const logger = createLogger(settings.logLevel);
    logger.info({ event: "config", config: maskSecrets(settings), sources, config_file: configFile ?? null }, "starting");
    if (!isLoopback(settings.host) && !settings.apiKey) logger.warn({ event: "config", host: settings.host }, "listening beyond loopback without an API key (set ROUTER_API_KEY)");
    const server = await startServer({ ...settings, logger, ...(configFile ? { configFile } : {}) });
    logger.info({ event: "listening", url: server.url, db: settings.db }, "listening; loading the index and models");

    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ event: "shutdown", signal }, "second signal: exiting now");
        process.exit(EXIT.FAILURE);
      }
      stopping = true;
      logger.info({ event: "shutdown", signal, grace_ms: settings.shutdownGraceMs }, "draining in-flight requests");
      void server.close().then(() => process.exit(EXIT.OK));
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    // A missing or damaged index does not stop the server: /readyz says why, and the index loads once it is written.
  });
}
