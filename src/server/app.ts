import type { Server } from "node:http";
import path from "node:path";
import { constants as zlibConstants } from "node:zlib";
import compress from "@fastify/compress";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyHttpOptions,
  type FastifyInstance,
  LogController,
} from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { EventBus } from "./adapters/events/event-bus";
import type { Outbox } from "./adapters/mail/outbox";
import type { Storage } from "./adapters/storage/storage";
import { localVatChecker, type VatNumberChecker } from "./adapters/vat-check/vat-checker";
import type { Database } from "./db/database";
import { analyticsStep } from "./features/analytics/sale-attribution";
import { customersStep } from "./features/audience/customer-rollup";
import { type Auth, createAuth } from "./features/auth/auth";
import { checkoutOrigin } from "./features/checkout/checkout-origin";
import { recoveryStep } from "./features/checkout-recovery/schedule-recovery";
import type { AppContext } from "./features/feature";
import { FEATURES } from "./features/index";
import { invoicesStep } from "./features/invoices/issue-invoice";
import { licenseKeysStep } from "./features/licenses/issue-license-key";
import type { OperationsDeps } from "./features/operations";
import { OrderChanges } from "./features/order-lifecycle/order-changes";
import { buyerLinkKey } from "./features/orders/buyer-links";
import { salesTotalsStep } from "./features/orders/sales-totals";
import { settleCheckouts } from "./features/orders/settle-checkouts";
import { pdfStampsStep } from "./features/pdf-stamps/stamp-queue";
import {
  type Resolver,
  STRICT_WEBHOOK_POLICY,
  type WebhookNetworkPolicy,
} from "./features/seller-webhooks/address-policy";
import { sellerWebhooksStep } from "./features/seller-webhooks/queue-events";
import { taxReportDaysStep } from "./features/tax-reports/tax-report-days";
import type { VirusScanner } from "./features/uploads/clamav";
import { registerErrorHandling } from "./http/errors";
import { registerRequestLogging } from "./http/logger";
import { registerRequestGuards } from "./http/request-guards";
import { registerSecurityHeaders } from "./http/security-headers";
import { sellerAnswers } from "./http/seller-answers";
import { registerSessionCookies } from "./http/session";
import { registerWebApp } from "./http/web-app";
import { JobQueue } from "./jobs/job-queue";
import { maintenanceJobs } from "./jobs/maintenance";
import { DRAINING_CLOSE, drainOnClose } from "./shutdown";

export interface AppDeps {
  appUrl: string;
  authSecret: string;
  db: Database;
  outbox: Outbox;
  stripe: Stripe;
  storage: Storage;
  events: EventBus;
  /** clamd, when CLAMD_URL is set: every upload is also scanned by it. */
  virusScanner?: VirusScanner;
  webhookSecrets: { platform: string; connect: string };
  /** The clock business rules read (grace periods, expiries); tests move it. */
  now?: () => Date;
  /** Built web app to serve; defaults to dist/web. */
  webDistDir?: string;
  /** Omit for silence (tests). */
  logger?: Logger;
  /** Fastify's trustProxy: true, or the addresses/CIDRs of the proxies in front (TRUST_PROXY). */
  trustProxy?: boolean | string;
  /**
   * Serve every sent email at /dev/mailbox. Only for the fully local setup: in production it would
   * show password-reset and download links to anyone.
   */
  devMailbox?: boolean;
  /** How long a job of a dead instance waits before another runs it (JOB_LEASE_SECONDS; a minute by default). */
  jobLeaseMs?: number;
  /** Where sellers' webhooks may go (config.ts); https only and no private address when omitted. */
  webhookPolicy?: WebhookNetworkPolicy;
  /** DNS for webhook deliveries; the system's by default (tests make names resolve where they need). */
  webhookResolver?: Resolver;
  /** Who checks buyers' EU VAT numbers; the local stand-in by default (there may be no internet). */
  vatChecker?: VatNumberChecker;
  /** Sellers' Stripe dashboard (the emulator's pages locally); https://dashboard.stripe.com by default. */
  stripeDashboardUrl?: string;
  /** The header a proxy or CDN puts the buyer's country in (CF-IPCountry...), lower case. */
  buyerCountryHeader?: string;
  /** For /metrics and backups (features/operations): the metrics token, the database's handle, DATA_DIR. */
  operations?: OperationsDeps;
}

export interface App {
  server: FastifyInstance;
  auth: Auth;
  /** The checkouts janitor and payment reconciliation, run every 2 minutes by jobs/maintenance.ts. */
  settleCheckouts(now: Date): Promise<void>;
  /**
   * All background work (emails, PDF stamps, webhook deliveries, broadcasts, housekeeping). boot.ts starts
   * and stops it; tests start it, or drive it with runDue().
   */
  jobs: JobQueue;
}

/** Fastify's default schema compilers, never used: every route's schema is zod's. */
function zodOnly(): never {
  throw new Error("Schemas are compiled by zod (setValidatorCompiler, setSerializerCompiler)");
}

/** The whole HTTP app from its dependencies. main.ts passes real adapters; tests pass their own. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const options: FastifyHttpOptions<Server> = {
    trustProxy: deps.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    // Signed download and storage links travel as path parameters and are longer than the default 100.
    routerOptions: { maxParamLength: 2000 },
    // On close, requests in flight finish and kept-alive connections close between requests (see
    // shutdown.ts); the realtime routes end their event streams themselves.
    ...DRAINING_CLOSE,
    // Zod compiles every schema (setValidatorCompiler below). Without factories of its own, Fastify would
    // load its default compilers (Ajv and fast-json-stringify: some hundred modules) at start.
    schemaController: { compilersFactory: { buildValidator: zodOnly, buildSerializer: zodOnly } },
    // One line per request when its answer is sent, sampled for kept pages (http/logger.ts).
    logController: new LogController({ disableRequestLogging: true }),
  };
  const server: FastifyInstance = Fastify({
    ...options,
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
  });
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  registerRequestLogging(server);
  registerSecurityHeaders(server, { formActionOrigins: [checkoutOrigin(deps.stripe)] });
  await server.register(compress, {
    encodings: ["br", "gzip"],
    // Text the app writes (pages, scripts, styles, JSON) only: never images or product files (already
    // compressed, and ranges must stay byte ranges) nor event streams (each event must go out at once).
    customTypes: /^(?:text\/html|text\/css|text\/javascript|application\/javascript|application\/json)\b/,
    // Pages are compressed per request: a fast brotli level is as small as gzip -9 and far quicker than 11.
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  registerErrorHandling(server);
  drainOnClose(server);
  registerRequestGuards(server, { appUrl: deps.appUrl });
  registerSessionCookies(server);

  const auth = createAuth({ db: deps.db, outbox: deps.outbox, appUrl: deps.appUrl, secret: deps.authSecret });
  const now = deps.now ?? (() => new Date());
  // The dashboard's stats and first sales page, kept per seller until an event for them (or 5 s).
  const answers = sellerAnswers(deps.events, now);
  server.addHook("onClose", async () => answers.close());
  const linkKey = buyerLinkKey(deps.authSecret);
  // What else changes with each order created or refunded, in this order (docs/after-a-sale.md).
  const orderChanges = new OrderChanges([
    salesTotalsStep,
    customersStep,
    analyticsStep,
    taxReportDaysStep,
    licenseKeysStep,
    pdfStampsStep,
    sellerWebhooksStep,
    invoicesStep({ appUrl: deps.appUrl }),
    recoveryStep,
  ]);
  const jobs = new JobQueue({
    db: deps.db,
    now,
    log: server.log,
    ...(deps.jobLeaseMs ? { leaseMs: deps.jobLeaseMs } : {}),
  });
  const context: AppContext = {
    server,
    appUrl: deps.appUrl,
    authSecret: deps.authSecret,
    db: deps.db,
    storage: deps.storage,
    stripe: deps.stripe,
    outbox: deps.outbox,
    events: deps.events,
    now,
    auth,
    answers,
    linkKey,
    fulfilment: { stripe: deps.stripe, outbox: deps.outbox, appUrl: deps.appUrl, linkKey, orderChanges },
    orderChanges,
    jobs,
    stripeEvents: { platform: {}, connect: {} },
    fileLinkGates: {},
    webhookSecrets: deps.webhookSecrets,
    webhookPolicy: deps.webhookPolicy ?? STRICT_WEBHOOK_POLICY,
    ...(deps.webhookResolver ? { webhookResolver: deps.webhookResolver } : {}),
    ...(deps.virusScanner ? { virusScanner: deps.virusScanner } : {}),
    webDistDir: deps.webDistDir ?? path.resolve("dist/web"),
    devMailbox: deps.devMailbox ?? false,
    tax: {
      vatChecker: deps.vatChecker ?? localVatChecker,
      stripeDashboardUrl: deps.stripeDashboardUrl ?? "https://dashboard.stripe.com",
      ...(deps.buyerCountryHeader ? { buyerCountryHeader: deps.buyerCountryHeader } : {}),
    },
    operations: deps.operations ?? {},
  };
  for (const feature of FEATURES) await feature.register(context);
  // Last: every other GET is the web app.
  await registerWebApp(server, context.webDistDir);

  // The app's own background work: sending the outbox, and housekeeping.
  const settle = (at: Date) =>
    settleCheckouts({ ...context.fulfilment, db: deps.db, events: deps.events }, at);
  jobs.register(
    deps.outbox.sendJob(),
    ...maintenanceJobs({ db: deps.db, storage: deps.storage, settleCheckouts: settle }),
  );
  return { server, auth, settleCheckouts: settle, jobs };
}
