import type { Database } from "../../db/database";

/** Deliveries are kept 30 days after they were created, then only their effects remain (the seller's tools). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Drops finished deliveries past the retention; one still being retried (after a resend) stays. */
export async function pruneWebhookDeliveries(db: Database, now: Date): Promise<void> {
  await db
    .deleteFrom("webhook_deliveries")
    .where("status", "!=", "pending")
    .where("created_at", "<", new Date(now.getTime() - DELIVERY_RETENTION_MS))
    .execute();
}
