import { sql } from "kysely";
import type Stripe from "stripe";
import type { Health } from "../../../contracts/health";
import type { MailTransport } from "../../adapters/mail/transport";
import { isStripeReachable } from "../../adapters/payments/stripe-client";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";

const CHECK_TIMEOUT_MS = 3_000;

export interface HealthDeps {
  db: Database;
  storage: Storage;
  stripe: Stripe;
  mailTransport: MailTransport;
}

/** Runs one check: "ok" when it answers true within the timeout, "down" otherwise. */
export async function probe(check: () => Promise<boolean>): Promise<"ok" | "down"> {
  const timeout = new Promise<boolean>((resolve) =>
    setTimeout(() => resolve(false), CHECK_TIMEOUT_MS).unref(),
  );
  const healthy = await Promise.race([check().catch(() => false), timeout]);
  return healthy ? "ok" : "down";
}

const CACHE_MS = 10_000;
const cached = new WeakMap<HealthDeps, { at: number; health: Promise<Health> }>();

/**
 * Checks each service for real (a query, a write check, an API call, an SMTP handshake), in parallel.
 * The answer is reused for 10 seconds, so a busy status page never turns into load on Stripe or SMTP.
 */
export function checkHealth(deps: HealthDeps, now = Date.now()): Promise<Health> {
  const last = cached.get(deps);
  if (last && now - last.at < CACHE_MS) return last.health;
  const health = probeAll(deps);
  cached.set(deps, { at: now, health });
  return health;
}

async function probeAll(deps: HealthDeps): Promise<Health> {
  const [database, storage, payments, mail] = await Promise.all([
    probe(async () => {
      await sql`select 1`.execute(deps.db);
      return true;
    }),
    probe(() => deps.storage.isHealthy()),
    probe(() => isStripeReachable(deps.stripe)),
    probe(() => deps.mailTransport.isHealthy()),
  ]);
  const services = { database, storage, payments, mail };
  const status = Object.values(services).every((state) => state === "ok") ? "ok" : "degraded";
  return { status, services };
}
