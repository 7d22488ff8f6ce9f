import path from "node:path";
import { startServer } from "./boot";
import { ConfigError, loadConfig } from "./config";

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
  // Every signal is handled (not once): a second SIGTERM or Ctrl-C must not kill the process halfway
  // through closing. close() runs its steps once however often it is called.
  const shutdown = (signal: NodeJS.Signals) => {
    log.info(`${signal} received: shutting down`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
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
