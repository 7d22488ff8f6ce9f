import { randomUUID } from "node:crypto";
import { API_KEY_LIMITS, API_KEY_MESSAGES, type CreatedApiKey } from "../../../contracts/api-keys";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { assertHasActivePlan } from "../billing";
import { newApiKey } from "./api-key-secret";
import { apiKeyColumns, toApiKey } from "./api-key-shapes";

/**
 * A new API key for the seller, answered whole this once. The seller's profile row is locked while
 * their keys are counted, so two requests at once cannot pass the limit together.
 */
export async function createApiKey(
  db: Database,
  sellerId: string,
  name: string,
  now: Date,
): Promise<CreatedApiKey> {
  await assertHasActivePlan(db, sellerId, now);
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom("profiles").select("id").where("id", "=", sellerId).forUpdate().execute();
    const active = await trx
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("seller_id", "=", sellerId)
      .where("revoked_at", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(active.count) >= API_KEY_LIMITS.maxKeysPerSeller) {
      throw new AppError("too_many_api_keys", 409, API_KEY_MESSAGES.tooMany);
    }
    // A lookup id is 10 random base62 characters: a clash is all but impossible, and then another is drawn.
    for (;;) {
      const { key, lookupId, hash } = newApiKey();
      const row = await trx
        .insertInto("api_keys")
        .values({
          id: randomUUID(),
          seller_id: sellerId,
          name,
          lookup_id: lookupId,
          secret_hash: hash,
          created_at: now,
        })
        .onConflict((conflict) => conflict.column("lookup_id").doNothing())
        .returning(apiKeyColumns)
        .executeTakeFirst();
      if (row) return { key: toApiKey(row), secret: key };
    }
  });
}
