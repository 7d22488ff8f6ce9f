import { startServer } from "./boot";
import { ConfigError, loadConfig } from "./config";

try {
  const config = loadConfig();
  const server = await startServer(config);
  const log = server.app.server.log;
  log.info(
    `Flatfee is running at ${config.appUrl} (database: ${config.database.kind}, payments: ${config.payments.kind}, mail: ${config.mail.kind})`,
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
