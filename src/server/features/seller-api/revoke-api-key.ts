import { API_KEY_MESSAGES } from "../../../contracts/api-keys";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";

/**
 * Revokes one of the seller's keys. Every API call reads its key's row, so the very next request with
 * it is refused. Another seller's key, or one already revoked, is a 404.
 */
export async function revokeApiKey(db: Database, sellerId: string, keyId: string, now: Date): Promise<void> {
  const revoked = await db
    .updateTable("api_keys")
    .set({ revoked_at: now })
    .where("id", "=", keyId)
    .where("seller_id", "=", sellerId)
    .where("revoked_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  if (!revoked) throw notFound(API_KEY_MESSAGES.notFound);
}
