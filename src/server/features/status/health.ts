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

async function probe(check: () => Promise<boolean>): Promise<"ok" | "down"> {
  const timeout = new Promise<boolean>((resolve) =>
    setTimeout(() => resolve(false), CHECK_TIMEOUT_MS).unref(),
  );
  const healthy = await Promise.race([check().catch(() => false), timeout]);
  return healthy ? "ok" : "down";
}

/** Checks each service for real (a query, a write check, an API call, an SMTP handshake), in parallel. */
export async function checkHealth(deps: HealthDeps): Promise<Health> {
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
