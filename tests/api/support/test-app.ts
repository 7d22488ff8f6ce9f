import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import type { Logger } from "pino";
import type Stripe from "stripe";
import {
  type EventBus,
  inProcessEventBus,
  postgresEventBus,
} from "../../../src/server/adapters/events/event-bus";
import { Outbox } from "../../../src/server/adapters/mail/outbox";
import { type MailTransport, mailboxTransport } from "../../../src/server/adapters/mail/transport";
import { createStripeClient } from "../../../src/server/adapters/payments/stripe-client";
import { type LocalDiskStorage, localDiskStorage } from "../../../src/server/adapters/storage/local-disk";
import { type App, type AppDeps, buildApp } from "../../../src/server/app";
import type { Database, DatabaseHandle } from "../../../src/server/db/database";
import { type RunningStripeEmulator, startStripeEmulator } from "../../../src/stripe-emulator";
import { openTestDatabase } from "./test-database";

export const APP_URL = "http://localhost:3000";
const silentLog = { info() {}, warn() {}, error() {} };
const silentEmulatorLog = { info() {}, warn() {}, error() {} };

export const STORAGE_SECRET = "test-storage-secret";
export const WEBHOOK_SECRETS = { platform: "whsec_test_platform", connect: "whsec_test_connect" };

export interface TestApp {
  app: App;
  db: Database;
  outbox: Outbox;
  stripe: Stripe;
  emulator: RunningStripeEmulator;
  database: DatabaseHandle;
  storage: LocalDiskStorage;
  /** Where the local storage driver keeps files, to check what is on disk. */
  storageRoot: string;
  events: EventBus;
  /** The app's clock; move it with `clock.advance(ms)`. */
  clock: { now(): Date; advance(ms: number): void; reset(): void };
  /** Set when created with `listen: true`: the app's own URL, which the emulator's webhooks reach. */
  url?: string;
  request(options: {
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    url: string;
    body?: unknown;
    cookie?: string;
    headers?: Record<string, string>;
    /** Client IP; a random one by default so per-IP rate limits only bite where a test means them to. */
    ip?: string;
  }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The real app (real database, real emulator over HTTP, real outbox) on app.inject(). */
export async function createTestApp(
  options: {
    mailTransport?: MailTransport;
    /** Listen on a port: the emulator's webhooks then reach this app. */
    listen?: boolean;
    /** Share a database (and the emulator) with another test app: two instances of one deployment. */
    sharing?: TestApp;
    /** A built web app to serve; by default there is none. */
    webDistDir?: string;
    /** Adds routes of the test's own before the app starts listening. */
    extraRoutes?: (server: App["server"]) => void;
    /** Logs of the app, e.g. to check what they contain; silent by default. */
    logger?: Logger;
    /** Where sellers' webhooks may go; https only and no private address (production) by default. */
    webhookPolicy?: AppDeps["webhookPolicy"];
    webhookResolver?: AppDeps["webhookResolver"];
    /** Who checks VAT numbers (the local stand-in by default), and the buyer's country header. */
    vatChecker?: AppDeps["vatChecker"];
    buyerCountryHeader?: string;
    /**
     * False: background jobs (emails, stamps, webhook deliveries, broadcasts) only run when the test calls
     * app.jobs.runDue(). Housekeeping jobs never run on their own in tests: they call what they need.
     */
    jobsInBackground?: boolean;
    /** A database of the test's own (closed with the app), e.g. one a server process opens afterwards. */
    database?: DatabaseHandle;
    /** A data directory of the test's own (its storage/ is the app's; kept on close). */
    dataDir?: string;
    /** METRICS_TOKEN: the bearer token that opens /metrics from another machine. */
    metricsToken?: string;
  } = {},
): Promise<TestApp> {
  const database = options.sharing
    ? { ...options.sharing.database, close: async () => {} }
    : (options.database ?? (await openTestDatabase()));
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), "flatfee-test-")));
  const emulator =
    options.sharing?.emulator ?? (await startStripeEmulator({ port: 0, logger: silentEmulatorLog }));
  const stripe = createStripeClient({ kind: "emulator", host: emulator.host, port: emulator.port });
  const outbox = new Outbox(database.db, options.mailTransport ?? mailboxTransport(), "test@flatfee.local");
  const storageRoot = path.join(dataDir, "storage");
  const storage = await localDiskStorage(storageRoot, { secret: STORAGE_SECRET });
  const events = database.pool
    ? await postgresEventBus(database.pool, database.notifications, silentLog)
    : inProcessEventBus();
  let offsetMs = 0;
  const clock = {
    now: () => new Date(Date.now() + offsetMs),
    advance: (ms: number) => {
      offsetMs += ms;
    },
    reset: () => {
      offsetMs = 0;
    },
  };
  const app = await buildApp({
    appUrl: APP_URL,
    authSecret: "test-secret-test-secret-test-secret-0123",
    db: database.db,
    outbox,
    stripe,
    storage,
    webDistDir: options.webDistDir ?? path.join(dataDir, "no-web-build"),
    events,
    devMailbox: true,
    webhookSecrets: WEBHOOK_SECRETS,
    now: clock.now,
    stripeDashboardUrl: emulator.url,
    ...(options.vatChecker ? { vatChecker: options.vatChecker } : {}),
    ...(options.buyerCountryHeader ? { buyerCountryHeader: options.buyerCountryHeader } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.webhookPolicy ? { webhookPolicy: options.webhookPolicy } : {}),
    ...(options.webhookResolver ? { webhookResolver: options.webhookResolver } : {}),
    operations: {
      connectionUsage: database.connectionUsage,
      notifications: database.notifications,
      ...(database.dumpEmbedded ? { dumpEmbedded: database.dumpEmbedded } : {}),
      dataDir,
      ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    },
  });
  if (options.jobsInBackground !== false) {
    await app.jobs.start({ notifications: database.notifications, housekeeping: false });
  }
  options.extraRoutes?.(app.server);
  let url: string | undefined;
  if (options.listen) url = await app.server.listen({ port: 0, host: "127.0.0.1" });
  if (options.listen && !options.sharing) {
    emulator.configureWebhooks({
      platform: { url: `${url}/api/webhooks/stripe`, secret: WEBHOOK_SECRETS.platform },
      connect: { url: `${url}/api/webhooks/stripe-connect`, secret: WEBHOOK_SECRETS.connect },
    });
  }
  return {
    url,
    database,
    storage,
    storageRoot,
    events,
    clock,
    app,
    db: database.db,
    outbox,
    stripe,
    emulator,
    request({ method, url, body, cookie, headers, ip }) {
      return app.server.inject({
        method,
        url,
        remoteAddress: ip ?? randomIp(),
        headers: { origin: APP_URL, ...(cookie ? { cookie } : {}), ...headers },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
    },
    async close() {
      await app.server.close();
      await app.jobs.stop();
      await events.close();
      if (!options.sharing) await emulator.close();
      await database.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The cookies a response set, as a Cookie header for the next request. */
export function cookiesOf(response: LightMyRequestResponse): string {
  return response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

const randomIp = () =>
  `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;

let counter = 0;
export const uniqueEmail = (prefix = "seller") => `${prefix}-${Date.now()}-${++counter}@example.com`;

/** Signs a new user up and returns their session cookie. */
export async function signUp(t: TestApp, email = uniqueEmail(), password = "correct-horse-42") {
  const response = await t.request({
    method: "POST",
    url: "/api/auth/sign-up/email",
    body: { email, password, name: email.split("@")[0] },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return {
    email,
    password,
    cookie: cookiesOf(response),
    userId: (response.json() as { user: { id: string } }).user.id,
  };
}
