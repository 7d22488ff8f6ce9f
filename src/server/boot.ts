import path from "node:path";
import type { Logger } from "pino";
import type Stripe from "stripe";
import { type RunningStripeEmulator, startStripeEmulator } from "../stripe-emulator";
import { inProcessEventBus, postgresEventBus } from "./adapters/events/event-bus";
import { Outbox } from "./adapters/mail/outbox";
import { type MailTransport, mailboxTransport } from "./adapters/mail/transport";
import { createStripeClient } from "./adapters/payments/stripe-client";
import { checkStripeSetup } from "./adapters/payments/stripe-setup-check";
import { localDiskStorage, type Storage } from "./adapters/storage/storage";
import { localVatChecker, viesVatChecker } from "./adapters/vat-check/vat-checker";
import { type App, buildApp } from "./app";
import type { Config } from "./config";
import { type DatabaseHandle, migrateToLatest, openDatabase } from "./db/database";
import { clamdScanner } from "./features/uploads/clamav";
import { createLogger } from "./http/logger";
import { closeInOrder, closeWithin } from "./shutdown";

export interface RunningServer {
  app: App;
  url: string;
  close(): Promise<void>;
}

/**
 * Runs one start step, logged before (a slow step is never silence) and after with how long it took, so a
 * slow start shows where its time went.
 */
async function startStep<T>(log: Logger, name: string, work: () => Promise<T>): Promise<T> {
  log.info(`start: ${name}…`);
  const started = performance.now();
  const result = await work();
  log.info(`start: ${name} took ${Math.round(performance.now() - started)} ms`);
  return result;
}

/**
 * The mail transport and the file storage the config names. The production ones' libraries (nodemailer,
 * the S3 SDK: about 0.3 s to load) are loaded only when configured, so the embedded mode starts without them.
 */
export async function mailAndStorage(
  config: Config,
): Promise<{ mailTransport: MailTransport; storage: Storage }> {
  const mailTransport =
    config.mail.kind === "smtp"
      ? (await import("./adapters/mail/smtp-transport")).smtpTransport(config.mail.url)
      : mailboxTransport();
  // Local links are same-origin paths signed with a key derived from the auth secret.
  const storage = config.s3
    ? (await import("./adapters/storage/s3")).s3Storage(config.s3)
    : await localDiskStorage(path.join(config.dataDir, "storage"), { secret: config.authSecret });
  return { mailTransport, storage };
}

/** config → database + migrations → adapters → app → listen. Used by main.ts and the browser tests. */
export async function startServer(
  config: Config,
  options: { logger?: boolean; webDistDir?: string; pgliteTemplate?: string } = {},
): Promise<RunningServer> {
  const logger = createLogger(options.logger === false ? "silent" : config.logLevel);
  // Payments need nothing from the database, so the Stripe emulator starts (or Stripe's webhook setup is
  // checked) while the database opens.
  const [opened, connected] = await Promise.allSettled([
    openAndMigrate(config, logger, options.pgliteTemplate),
    connectPayments(config, logger),
  ]);
  if (opened.status === "rejected" || connected.status === "rejected") {
    // A failed start leaves nothing open: whichever of the two did start is closed again.
    if (connected.status === "fulfilled") await connected.value.emulator?.close();
    if (opened.status === "fulfilled") await opened.value.close();
    throw opened.status === "rejected" ? opened.reason : (connected as PromiseRejectedResult).reason;
  }
  const database = opened.value;
  const { stripe, emulator } = connected.value;

  const { mailTransport, storage } = await mailAndStorage(config);
  const outbox = new Outbox(database.db, mailTransport, config.mail.from);

  const events = database.pool
    ? await postgresEventBus(database.pool, database.notifications, logger)
    : inProcessEventBus();
  const app = await startStep(logger, "building the app", () =>
    buildApp({
      appUrl: config.appUrl,
      authSecret: config.authSecret,
      db: database.db,
      outbox,
      stripe,
      storage,
      events,
      trustProxy: config.trustProxy,
      devMailbox: config.mail.kind === "mailbox" && config.payments.kind === "emulator",
      webhookPolicy: config.webhooks,
      ...(config.clamdUrl ? { virusScanner: clamdScanner(config.clamdUrl) } : {}),
      webhookSecrets: {
        platform: config.payments.webhookSecret,
        connect: config.payments.connectWebhookSecret,
      },
      logger,
      jobLeaseMs: config.jobLeaseMs,
      vatChecker: config.vatCheck === "vies" ? viesVatChecker() : localVatChecker,
      ...(emulator ? { stripeDashboardUrl: emulator.url } : {}),
      ...(config.buyerCountryHeader ? { buyerCountryHeader: config.buyerCountryHeader } : {}),
      ...(options.webDistDir ? { webDistDir: options.webDistDir } : {}),
      operations: {
        ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
        connectionUsage: database.connectionUsage,
        notifications: database.notifications,
        ...(database.dumpEmbedded ? { dumpEmbedded: database.dumpEmbedded } : {}),
        dataDir: config.dataDir,
      },
    }),
  );
  await startStep(logger, `listening on ${config.host}:${config.port}`, () =>
    app.server.listen({ port: config.port, host: config.host }),
  );
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
  await startStep(logger, "starting the background jobs", () =>
    app.jobs.start({ notifications: database.notifications }),
  );

  // Requests in flight finish first (they may still queue jobs and publish events), then the jobs running
  // here finish (what is not started stays queued for the next start or another instance), then the rest,
  // in order, and only once however many times close() is called (a second SIGTERM changes nothing).
  let closing: Promise<void> | undefined;
  return {
    app,
    url: localUrl,
    close() {
      closing ??= closeInOrder(
        [
          { name: "HTTP server", close: () => closeWithin(app.server, logger) },
          { name: "background jobs", close: () => app.jobs.stop() },
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

/** Where the database is, for the start log: PostgreSQL's URL would show its password. */
function databaseName(config: Config): string {
  return config.database.kind === "postgres" ? "PostgreSQL" : `PGlite in ${config.database.directory}`;
}

async function openAndMigrate(
  config: Config,
  logger: Logger,
  pgliteTemplate?: string,
): Promise<DatabaseHandle> {
  const database = await startStep(logger, `opening the database (${databaseName(config)})`, () =>
    openDatabase(config.database, logger, pgliteTemplate),
  );
  await startStep(logger, "running migrations", () => migrateToLatest(database.db));
  return database;
}

/** The Stripe client: the local emulator, started here, or Stripe itself, whose webhook setup is checked. */
async function connectPayments(
  config: Config,
  logger: Logger,
): Promise<{ stripe: Stripe; emulator?: RunningStripeEmulator }> {
  const payments = config.payments;
  if (payments.kind === "stripe") {
    const stripe = createStripeClient({ kind: "stripe", secretKey: payments.secretKey });
    await startStep(logger, "checking the Stripe webhook endpoints", () =>
      checkStripeSetup(stripe, config.appUrl, logger),
    );
    return { stripe };
  }
  const emulator = await startStep(logger, `starting the Stripe emulator on port ${payments.port}`, () =>
    startStripeEmulator({
      port: payments.port,
      stateFile: path.join(config.dataDir, "stripe-emulator.json"),
    }),
  );
  return {
    stripe: createStripeClient({ kind: "emulator", host: emulator.host, port: emulator.port }),
    emulator,
  };
}
