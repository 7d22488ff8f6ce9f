import { startServer } from "./boot";
import { ConfigError, loadConfig } from "./config";

try {
  const config = loadConfig();
  const server = await startServer(config);
  server.app.server.log.info(
    `Flatfee is running at ${config.appUrl} (database: ${config.database.kind}, payments: ${config.payments.kind}, mail: ${config.mail.kind})`,
  );
  if (config.mail.kind === "mailbox") server.app.server.log.info(`Emails: ${config.appUrl}/dev/mailbox`);
  const shutdown = async () => {
    await server.close();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
