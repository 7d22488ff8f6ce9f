import type { ApiKey } from "../../../contracts/api-keys";
import type { Database } from "../../db/database";
import { apiKeyColumns, toApiKey } from "./api-key-shapes";

/** The seller's keys that still work, newest first. */
export async function listApiKeys(db: Database, sellerId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom("api_keys")
    .select(apiKeyColumns)
    .where("seller_id", "=", sellerId)
    .where("revoked_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toApiKey);
}
