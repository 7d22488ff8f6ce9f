import path from "node:path";
import { startServer } from "./boot";
import { ConfigError, loadConfig } from "./config";

/** A second SIGINT sooner than this after the first is the same Ctrl-C delivered twice. */
const SAME_CTRL_C_MS = 500;

// Imports are evaluated before the first statement runs, so this is how long loading the code took.
const codeLoadedMs = performance.now();

try {
  const config = loadConfig();
  // Built with the server by `npm start`; cwd-relative like dist/web.
  const server = await startServer(config, { pgliteTemplate: path.resolve("dist/pglite-template.tgz") });
  const log = server.app.server.log;
  log.info(
    `Flatfee is running at ${config.appUrl} (database: ${config.database.kind}, payments: ${config.payments.kind}, mail: ${config.mail.kind}), ready ${seconds(performance.now())} after the process started (loading the code: ${seconds(codeLoadedMs)})`,
  );
  if (config.mail.kind === "mailbox") log.info(`Emails: ${config.appUrl}/dev/mailbox`);
  // SIGTERM (an orchestrator) and Ctrl-C (SIGINT, sent to npm, its shell and node alike) start one drain:
  // close() runs its steps once. Every signal is handled, so none kills the process halfway through
  // closing: another SIGTERM changes nothing, another Ctrl-C exits at once, as a person pressing it
  // again means. A SIGINT right after the first is the same Ctrl-C, forwarded once more by npm.
  let shutdownStartedAt: number | undefined;
  const shutdown = (signal: NodeJS.Signals) => {
    if (shutdownStartedAt === undefined) {
      shutdownStartedAt = performance.now();
      log.info(`${signal} received: shutting down`);
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    } else if (signal === "SIGINT" && performance.now() - shutdownStartedAt > SAME_CTRL_C_MS) {
      log.warn("second Ctrl-C: exiting without finishing the requests in flight");
      process.exit(130);
    }
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}
