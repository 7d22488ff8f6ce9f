import path from "node:path";
import type Stripe from "stripe";
import { type RunningStripeEmulator, startStripeEmulator } from "../stripe-emulator";
import { inProcessEventBus, postgresEventBus } from "./adapters/events/event-bus";
import { Outbox } from "./adapters/mail/outbox";
import { type MailTransport, mailboxTransport, smtpTransport } from "./adapters/mail/transport";
import { createStripeClient } from "./adapters/payments/stripe-client";
import { checkStripeSetup } from "./adapters/payments/stripe-setup-check";
import { localDiskStorage, s3Storage } from "./adapters/storage/storage";
import { type App, buildApp } from "./app";
import type { Config } from "./config";
import { migrateToLatest, openDatabase } from "./db/database";
import { clamdScanner } from "./features/uploads/clamav";
import { createLogger } from "./http/logger";
import { startMaintenance } from "./jobs/maintenance";
import { closeInOrder, closeWithin } from "./shutdown";

export interface RunningServer {
  app: App;
  url: string;
  close(): Promise<void>;
}

/** config → database + migrations → adapters → app → listen. Used by main.ts and the browser tests. */
export async function startServer(
  config: Config,
  options: { logger?: boolean; webDistDir?: string } = {},
): Promise<RunningServer> {
  const logger = createLogger(options.logger === false ? "silent" : config.logLevel);
  const database = await openDatabase(config.database, logger);
  await migrateToLatest(database.db);

  const mailTransport: MailTransport =
    config.mail.kind === "smtp" ? smtpTransport(config.mail.url) : mailboxTransport();

  let emulator: RunningStripeEmulator | undefined;
  let stripe: Stripe;
  if (config.payments.kind === "emulator") {
    emulator = await startStripeEmulator({
      port: config.payments.port,
      stateFile: path.join(config.dataDir, "stripe-emulator.json"),
    });
    stripe = createStripeClient({ kind: "emulator", host: emulator.host, port: emulator.port });
  } else {
    stripe = createStripeClient({ kind: "stripe", secretKey: config.payments.secretKey });
    await checkStripeSetup(stripe, config.appUrl, logger);
  }

  // Local links are same-origin paths signed with a key derived from the auth secret.
  const storage = config.s3
    ? s3Storage(config.s3)
    : await localDiskStorage(path.join(config.dataDir, "storage"), { secret: config.authSecret });
  const outbox = new Outbox(database.db, mailTransport, config.mail.from, logger);

  const events = database.pool ? await postgresEventBus(database.pool, logger) : inProcessEventBus();
  const app = await buildApp({
    appUrl: config.appUrl,
    authSecret: config.authSecret,
    db: database.db,
    outbox,
    stripe,
    storage,
    events,
    trustProxy: config.trustProxy,
    devMailbox: config.mail.kind === "mailbox" && config.payments.kind === "emulator",
    ...(config.clamdUrl ? { virusScanner: clamdScanner(config.clamdUrl) } : {}),
    webhookSecrets: {
      platform: config.payments.webhookSecret,
      connect: config.payments.connectWebhookSecret,
    },
    logger,
    ...(options.webDistDir ? { webDistDir: options.webDistDir } : {}),
  });
  await app.server.listen({ port: config.port, host: config.host });
  const address = app.server.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const localUrl = `http://127.0.0.1:${port}`;

  if (emulator && config.payments.kind === "emulator") {
    // The emulator calls us on the loopback address, whatever public APP_URL is set.
    emulator.configureWebhooks({
      platform: { url: `${localUrl}/api/webhooks/stripe`, secret: config.payments.webhookSecret },
      connect: {
        url: `${localUrl}/api/webhooks/stripe-connect`,
        secret: config.payments.connectWebhookSecret,
      },
    });
  }
  outbox.start();
  const maintenance = startMaintenance({
    db: database.db,
    storage,
    log: logger,
    settleCheckouts: app.settleCheckouts,
  });

  // Requests in flight finish first (they may still enqueue mail and publish events), then the rest, in
  // order, and only once however many times close() is called (a second SIGTERM changes nothing).
  let closing: Promise<void> | undefined;
  return {
    app,
    url: localUrl,
    close() {
      closing ??= closeInOrder(
        [
          { name: "HTTP server", close: () => closeWithin(app.server, logger) },
          { name: "maintenance jobs", close: () => maintenance.stop() },
          { name: "outbox", close: () => outbox.stop() },
          { name: "event bus", close: () => events.close() },
          ...(emulator ? [{ name: "Stripe emulator", close: emulator.close }] : []),
          { name: "database", close: () => database.close() },
        ],
        logger,
      );
      return closing;
    },
  };
}
