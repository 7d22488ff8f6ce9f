import {
  WEBHOOK_LIMITS,
  WEBHOOK_MESSAGES,
  type WebhookDelivery,
  type WebhookEventType,
} from "../../../contracts/webhooks";
import { type Database, inTransaction } from "../../db/database";
import { AppError, notFound } from "../../http/errors";
import { assertHasActivePlan } from "../billing";
import { enqueueDelivery } from "./deliver-webhooks";
import { ownEndpoint } from "./endpoints";
import { exampleEventData, queueDeliveries, webhookBody } from "./queue-events";

/** An endpoint's newest deliveries, for the seller who owns it. */
export async function listDeliveries(
  db: Database,
  sellerId: string,
  endpointId: string,
): Promise<WebhookDelivery[]> {
  await ownEndpoint(db, sellerId, endpointId);
  const rows = await db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("endpoint_id", "=", endpointId)
    .where("seller_id", "=", sellerId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(WEBHOOK_LIMITS.deliveriesListed)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    lastResponseStatus: row.last_response_status,
    lastError: row.last_error,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    nextAttemptAt: row.status === "pending" ? row.next_attempt_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  }));
}

/**
 * Sends the same message again (same webhook-id and body, so a receiver that already has it can drop
 * it), now, with a new round of retries.
 */
export async function resendDelivery(
  db: Database,
  sellerId: string,
  deliveryId: string,
  now: Date,
): Promise<void> {
  await assertHasActivePlan(db, sellerId, now);
  await inTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable("webhook_deliveries")
      .set({ status: "pending", round_attempts: 0, round_started_at: now, next_attempt_at: now })
      .where("id", "=", deliveryId)
      .where("seller_id", "=", sellerId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
    await enqueueDelivery(trx, deliveryId, true);
  });
}

/** Queues an example of one of the endpoint's events, marked `"test": true`, to try the receiver. */
export async function sendExampleEvent(
  db: Database,
  sellerId: string,
  endpointId: string,
  type: WebhookEventType,
  now: Date,
): Promise<string> {
  await assertHasActivePlan(db, sellerId, now);
  const endpoint = await ownEndpoint(db, sellerId, endpointId);
  if (!endpoint.events.includes(type))
    throw new AppError("event_not_chosen", 400, WEBHOOK_MESSAGES.eventNotChosen);
  const body = webhookBody(type, exampleEventData(type, now), now, true);
  const [id] = await queueDeliveries(db, sellerId, [endpoint.id], type, body, now);
  return id!;
}
