import { API_KEY_LIMITS, API_KEY_MESSAGES } from "../../../contracts/api-keys";
import type { ErrorCode } from "../../../contracts/error-codes";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { enforceRateLimit, type RateRule } from "../../http/rate-limit";
import { lookupIdOf, matchesHash } from "./api-key-secret";

/** Who is calling the API: the key's seller, whose data alone every v1 route reads. */
export interface ApiCaller {
  sellerId: string;
  keyId: string;
}

export const API_KEY_RATE: RateRule = {
  name: "api-key",
  limit: API_KEY_LIMITS.requestsPerMinute,
  windowSeconds: 60,
};
/** Wrong keys from one address: guessing is hopeless anyway, this keeps it from costing us queries. */
export const INVALID_API_KEY_RATE: RateRule = { name: "api-key-invalid:ip", limit: 30, windowSeconds: 60 };

const refused = (code: ErrorCode, message: string) => new AppError(code, 401, message);

/** The key of `Authorization: Bearer <key>`, or a 401 saying what is wrong with the header. */
function bearerKey(authorization: string | undefined): string {
  if (!authorization) throw refused("api_key_missing", API_KEY_MESSAGES.missing);
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match?.[1]) throw refused("api_key_malformed", API_KEY_MESSAGES.malformed);
  return match[1];
}

/**
 * The caller of an API request, from its bearer key: an unknown or revoked key is a 401 (read from the
 * database on every call, so a revoked key is refused at once). `identified` is told the caller before
 * the per-key rate limit runs, so refused calls are logged for the seller too.
 */
export async function authenticateApiKey(
  db: Database,
  request: { authorization: string | undefined; ip: string },
  now: Date,
  identified: (caller: ApiCaller) => void,
): Promise<ApiCaller> {
  const key = bearerKey(request.authorization);
  const lookupId = lookupIdOf(key);
  if (!lookupId) throw refused("api_key_malformed", API_KEY_MESSAGES.malformed);
  const row = await db
    .selectFrom("api_keys")
    .select(["id", "seller_id", "secret_hash", "last_used_at"])
    .where("lookup_id", "=", lookupId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row || !matchesHash(key, row.secret_hash)) {
    await enforceRateLimit(db, INVALID_API_KEY_RATE, request.ip, API_KEY_MESSAGES.tooManyInvalid, now);
    throw refused("invalid_api_key", API_KEY_MESSAGES.invalid);
  }
  const caller = { sellerId: row.seller_id, keyId: row.id };
  identified(caller);
  await enforceRateLimit(db, API_KEY_RATE, row.id, API_KEY_MESSAGES.rateLimited, now);
  await touchLastUsed(db, row, now);
  return caller;
}

/** "Last used", written at most once a minute per key: a busy integration does not write on every call. */
async function touchLastUsed(db: Database, key: { id: string; last_used_at: Date | null }, now: Date) {
  const staleBefore = new Date(now.getTime() - API_KEY_LIMITS.lastUsedEverySeconds * 1000);
  if (key.last_used_at && key.last_used_at > staleBefore) return;
  await db
    .updateTable("api_keys")
    .set({ last_used_at: now })
    .where("id", "=", key.id)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", staleBefore)]))
    .execute();
}
