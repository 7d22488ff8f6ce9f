import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import {
  WEBHOOK_LIMITS,
  WEBHOOK_MESSAGES,
  type WebhookEndpoint,
  type WebhookEventType,
  webhookEndpointInputSchema,
} from "../../../contracts/webhooks";
import { type Database, inTransaction } from "../../db/database";
import { AppError, badRequest, notFound } from "../../http/errors";
import { assertHasActivePlan } from "../billing";
import { checkEndpointUrl, type WebhookNetworkPolicy } from "./address-policy";
import { newWebhookSecret } from "./signature";

const newEndpointId = () => `whep_${randomBytes(10).toString("base64url")}`;

/** The seller's endpoints, oldest first, each with its newest delivery's outcome. */
export async function listEndpoints(
  db: Database,
  sellerId: string,
  onlyId?: string,
): Promise<WebhookEndpoint[]> {
  let query = db
    .selectFrom("webhook_endpoints as e")
    .select(["e.id", "e.url", "e.events", "e.created_at"])
    .select((eb) => [
      eb
        .selectFrom("webhook_deliveries as d")
        .select(sql<string>`d.status || ':' || coalesce(d.last_response_status::text, '')`.as("last"))
        .whereRef("d.endpoint_id", "=", "e.id")
        .orderBy("d.created_at", "desc")
        .orderBy("d.id", "desc")
        .limit(1)
        .as("last_delivery"),
    ])
    .where("e.seller_id", "=", sellerId)
    .orderBy("e.created_at")
    .orderBy("e.id");
  if (onlyId) query = query.where("e.id", "=", onlyId);
  const rows = await query.execute();
  return rows.map((row) => {
    const [status, code] = row.last_delivery?.split(":") ?? [];
    return {
      id: row.id,
      url: row.url,
      events: row.events as WebhookEventType[],
      createdAt: row.created_at.toISOString(),
      lastDelivery: status
        ? {
            status: status as "pending" | "succeeded" | "failed",
            lastResponseStatus: code ? Number(code) : null,
          }
        : null,
    };
  });
}

/** An endpoint of this seller (another seller's is a 404, as if it did not exist). */
export async function ownEndpoint(db: Database, sellerId: string, endpointId: string) {
  const endpoint = await db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("id", "=", endpointId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (!endpoint) throw notFound(WEBHOOK_MESSAGES.endpointNotFound);
  return endpoint;
}

/**
 * Adds an endpoint with a new signing secret, answered once here (and on demand later). The seller's
 * endpoints are counted under a lock on their profile, so two adds at once cannot pass the limit.
 */
export async function registerEndpoint(
  db: Database,
  sellerId: string,
  input: unknown,
  policy: WebhookNetworkPolicy,
  now: Date,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  await assertHasActivePlan(db, sellerId, now);
  const parsed = webhookEndpointInputSchema.safeParse(input);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? WEBHOOK_MESSAGES.urlInvalid);
  const url = checkEndpointUrl(parsed.data.url, policy);
  const id = newEndpointId();
  const secret = newWebhookSecret();
  await inTransaction(db, async (trx) => {
    await trx.selectFrom("profiles").select("id").where("id", "=", sellerId).forUpdate().executeTakeFirst();
    const { count } = await trx
      .selectFrom("webhook_endpoints")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("seller_id", "=", sellerId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= WEBHOOK_LIMITS.endpointsPerSeller) {
      throw new AppError("too_many_endpoints", 409, WEBHOOK_MESSAGES.tooManyEndpoints);
    }
    await trx
      .insertInto("webhook_endpoints")
      .values({ id, seller_id: sellerId, url: url.href, events: parsed.data.events, secret, created_at: now })
      .execute();
  });
  const [endpoint] = await listEndpoints(db, sellerId, id);
  return { endpoint: endpoint!, secret };
}

/** Deletes the endpoint and its deliveries (cascade): nothing more is sent to it. */
export async function deleteEndpoint(db: Database, sellerId: string, endpointId: string): Promise<void> {
  const deleted = await db
    .deleteFrom("webhook_endpoints")
    .where("id", "=", endpointId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw notFound(WEBHOOK_MESSAGES.endpointNotFound);
}

export async function revealSecret(db: Database, sellerId: string, endpointId: string): Promise<string> {
  return (await ownEndpoint(db, sellerId, endpointId)).secret;
}

/** A new secret at once: attempts from now on (retries included) are signed with it. */
export async function rotateSecret(db: Database, sellerId: string, endpointId: string): Promise<string> {
  const secret = newWebhookSecret();
  const updated = await db
    .updateTable("webhook_endpoints")
    .set({ secret })
    .where("id", "=", endpointId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw notFound(WEBHOOK_MESSAGES.endpointNotFound);
  return secret;
}
