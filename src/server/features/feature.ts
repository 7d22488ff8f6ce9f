import type { FastifyInstance } from "fastify";
import type Stripe from "stripe";
import type { EventBus } from "../adapters/events/event-bus";
import type { Outbox } from "../adapters/mail/outbox";
import type { Storage } from "../adapters/storage/storage";
import type { VatNumberChecker } from "../adapters/vat-check/vat-checker";
import type { Database } from "../db/database";
import type { SellerAnswers } from "../http/seller-answers";
import type { JobQueue } from "../jobs/job-queue";
import type { Auth } from "./auth";
import type { OperationsDeps } from "./operations";
import type { OrderChanges } from "./order-lifecycle";
import type { FulfilmentDeps } from "./orders";
import type { Resolver, WebhookNetworkPolicy } from "./seller-webhooks";
import type { FileLinkGates, VirusScanner } from "./uploads";
import type { EventHandler } from "./webhooks";

/**
 * What a feature is given to register itself (docs/adding-a-feature.md): the app's adapters, the clock,
 * the shared pieces app.ts makes once (the session, the dashboard's kept answers, the order lifecycle,
 * the job queue), and the Stripe event tables features add their handlers to.
 */
export interface AppContext {
  server: FastifyInstance;
  appUrl: string;
  authSecret: string;
  db: Database;
  storage: Storage;
  stripe: Stripe;
  outbox: Outbox;
  events: EventBus;
  /** The app's clock: every rule reads it (tests move it). */
  now: () => Date;
  auth: Auth;
  /** The dashboard's busiest reads, kept per seller until an event for them. */
  answers: SellerAnswers;
  /** Signs buyers' links (download, library). */
  linkKey: string;
  /** What fulfilment needs: Stripe, the outbox, links, and what else changes with each order. */
  fulfilment: FulfilmentDeps;
  orderChanges: OrderChanges;
  jobs: JobQueue;
  /** Stripe's events a feature handles, by type: the platform account's and connected accounts'. */
  stripeEvents: { platform: Record<string, EventHandler>; connect: Record<string, EventHandler> };
  /** What the local storage's signed links check before serving (downloads gives its gate). */
  fileLinkGates: FileLinkGates;
  webhookSecrets: { platform: string; connect: string };
  webhookPolicy: WebhookNetworkPolicy;
  webhookResolver?: Resolver;
  virusScanner?: VirusScanner;
  /** The built web app (its stylesheet, the embed script). */
  webDistDir: string;
  /** Serve every sent email at /dev/mailbox (the fully local setup only). */
  devMailbox: boolean;
  /**
   * What tax needs from outside: the VAT number checker, the sellers' Stripe dashboard, the buyer's country
   * header (which checkout, the download logs and the license verification log read too).
   */
  tax: TaxContext;
  /** The operator's: the metrics token, the database's connections and dump, the data folder. */
  operations: OperationsDeps;
}

export interface TaxContext {
  vatChecker: VatNumberChecker;
  stripeDashboardUrl: string;
  buyerCountryHeader?: string;
}

/** A feature room registers its routes, jobs and Stripe event handlers through this one function. */
export interface Feature {
  name: string;
  register(context: AppContext): void | Promise<void>;
}
