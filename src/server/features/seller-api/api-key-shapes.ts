import type { Selectable } from "kysely";
import type { ApiKey } from "../../../contracts/api-keys";
import type { ApiKeyTable } from "../../db/schema";
import { displayPrefix } from "./api-key-secret";

export const apiKeyColumns = ["id", "name", "lookup_id", "created_at", "last_used_at"] as const;

export function toApiKey(row: Pick<Selectable<ApiKeyTable>, (typeof apiKeyColumns)[number]>): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: displayPrefix(row.lookup_id),
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}
