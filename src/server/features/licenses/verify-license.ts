import { sql } from "kysely";
import {
  LICENSE_KEY_FORMAT,
  LICENSE_LIMITS,
  LICENSE_MESSAGES,
  normalizeLicenseKey,
  type VerifiedLicense,
  verifyLicenseSchema,
} from "../../../contracts/licenses";
import { type Database, inTransaction } from "../../db/database";
import type { LicenseVerificationOutcome } from "../../db/schema";
import { AppError, badRequest } from "../../http/errors";
import { enforceRateLimit } from "../../http/rate-limit";
import { type Requester, USER_AGENT_MAX_LENGTH } from "../../http/requester";

export interface VerifyLicenseDeps {
  db: Database;
  now: () => Date;
}

const KEY_SHAPE = new RegExp(
  `^[${LICENSE_KEY_FORMAT.alphabet}]{${LICENSE_KEY_FORMAT.groupLength}}(-[${LICENSE_KEY_FORMAT.alphabet}]{${LICENSE_KEY_FORMAT.groupLength}}){${LICENSE_KEY_FORMAT.groups - 1}}$`,
);

/** Keys another platform issued (a store import keeps them): any letters, digits and dashes, kept as given. */
const IMPORTED_KEY_SHAPE = /^[A-Za-z0-9][A-Za-z0-9-]{7,99}$/;

/**
 * The key as stored: ours in their one written form (case, spaces and look-alike letters forgiven);
 * an imported key exactly as its platform wrote it (docs/store-import.md). Anything else finds nothing.
 */
export function keyToLookUp(input: string): string | undefined {
  const ours = normalizeLicenseKey(input);
  if (KEY_SHAPE.test(ours)) return ours;
  const imported = input.trim();
  return IMPORTED_KEY_SHAPE.test(imported) ? imported : undefined;
}

type FoundKey = NonNullable<Awaited<ReturnType<typeof findKey>>>;

/** A key of this product with its order, through the (product_id, key) unique index. */
function findKey(db: Database, productId: string, key: string) {
  return db
    .selectFrom("license_keys")
    .innerJoin("orders", "orders.id", "license_keys.order_id")
    .select([
      "license_keys.order_id",
      "license_keys.seller_id",
      "license_keys.product_id",
      "license_keys.key",
      "license_keys.disabled_at",
      "license_keys.uses",
      "orders.status",
      "orders.dispute_status",
      "orders.customer_email",
      "orders.product_title",
      "orders.amount_cents",
      "orders.currency",
      "orders.created_at",
    ])
    .where("license_keys.product_id", "=", productId)
    .where("license_keys.key", "=", key)
    .executeTakeFirst();
}

const unknownKey = () => new AppError("license_not_found", 404, LICENSE_MESSAGES.notFound);

/** What a check of a found key answers: valid, or why it is refused (the verification log keeps it). */
function outcomeOf(found: FoundKey): LicenseVerificationOutcome {
  if (found.status === "refunded") return "refunded";
  // A disputed sale's key waits for the bank's decision; a lost dispute keeps it off (docs/disputes.md).
  if (found.dispute_status === "open") return "disputed";
  if (found.dispute_status === "lost") return "dispute_lost";
  if (found.disabled_at) return "disabled";
  return "valid";
}

const REFUSALS: Record<Exclude<LicenseVerificationOutcome, "valid">, () => AppError> = {
  refunded: () => new AppError("license_refunded", 403, LICENSE_MESSAGES.refunded),
  disputed: () => new AppError("license_suspended", 403, LICENSE_MESSAGES.suspended),
  dispute_lost: () => new AppError("license_suspended", 403, LICENSE_MESSAGES.disputeLost),
  disabled: () => new AppError("license_disabled", 403, LICENSE_MESSAGES.disabled),
};

/**
 * One row of the key's verification log (what the dispute evidence lists, docs/disputes.md): one insert,
 * in the use count's transaction when the check counted a use.
 */
async function logVerification(
  db: Database,
  found: FoundKey,
  check: { outcome: LicenseVerificationOutcome; increment: boolean; uses: number; at: Date },
  requester: Requester,
): Promise<void> {
  await db
    .insertInto("license_verifications")
    .values({
      seller_id: found.seller_id,
      order_id: found.order_id,
      outcome: check.outcome,
      increment_uses: check.increment,
      uses: check.uses,
      country: requester.country ?? null,
      user_agent: requester.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
      created_at: check.at,
    })
    .execute();
}

/** The use counted: one conditional `uses + 1` that re-checks the key is enabled and its sale holds. */
function countUse(trx: Database, orderId: string, now: Date) {
  return trx
    .updateTable("license_keys")
    .set({ uses: sql`uses + 1`, last_verified_at: now })
    .where("order_id", "=", orderId)
    .where("disabled_at", "is", null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("orders")
          .select("orders.id")
          .whereRef("orders.id", "=", "license_keys.order_id")
          .where("orders.status", "=", "completed")
          .where((inner) =>
            inner.or([
              inner("orders.dispute_status", "is", null),
              inner("orders.dispute_status", "=", "won"),
            ]),
          ),
      ),
    )
    .returning("uses")
    .executeTakeFirst();
}

/**
 * `POST /api/v1/licenses/verify`: whether a key is valid for a product, for the seller's software. Public
 * (no account, no cookie), so it is rate limited per IP before anything is read and per key once the key
 * is known (unknown keys are not counted per key: guessing is what the IP limit slows down). A valid key's
 * use is counted with one conditional `uses = uses + 1`, which also re-checks that the key is enabled and
 * its order not refunded, so a disable or refund landing meanwhile is never answered as valid.
 * Another product's key is answered exactly like an unknown one. Every check of an existing key that
 * passes the rate limits is logged (its outcome, the use count, the caller's country and user agent);
 * an unknown key is not (no key, no seller).
 */
export async function verifyLicense(
  deps: VerifyLicenseDeps,
  body: unknown,
  ip: string,
  requester: Requester = {},
): Promise<VerifiedLicense> {
  const now = deps.now();
  await enforceRateLimit(deps.db, LICENSE_LIMITS.perIp, ip, LICENSE_MESSAGES.tooManyFromIp, now);
  const parsed = verifyLicenseSchema.safeParse(body ?? {});
  if (!parsed.success) {
    throw badRequest(
      parsed.error.issues[0]?.message ?? LICENSE_MESSAGES.licenseKeyMissing,
      "validation_error",
    );
  }
  const { product_id: productId, increment_uses_count: increment } = parsed.data;
  const key = keyToLookUp(parsed.data.license_key);
  if (!key) throw unknownKey();

  let found = await findKey(deps.db, productId, key);
  if (!found) throw unknownKey();
  await enforceRateLimit(deps.db, LICENSE_LIMITS.perKey, found.order_id, LICENSE_MESSAGES.tooManyForKey, now);
  const outcome = outcomeOf(found);
  if (outcome !== "valid") {
    await logVerification(deps.db, found, { outcome, increment, uses: found.uses, at: now }, requester);
    throw REFUSALS[outcome]();
  }

  let uses = found.uses;
  if (increment) {
    const valid = found;
    const counted = await inTransaction(deps.db, async (trx) => {
      const row = await countUse(trx, valid.order_id, now);
      if (row) await logVerification(trx, valid, { outcome, increment, uses: row.uses, at: now }, requester);
      return row;
    });
    if (!counted) {
      // Disabled or refunded between the read and the count: answer (and log) what it is now.
      found = await findKey(deps.db, productId, key);
      const current = found ? outcomeOf(found) : "valid";
      if (!found || current === "valid") throw unknownKey();
      await logVerification(
        deps.db,
        found,
        { outcome: current, increment, uses: found.uses, at: now },
        requester,
      );
      throw REFUSALS[current]();
    }
    uses = counted.uses;
  } else {
    await logVerification(deps.db, found, { outcome, increment, uses, at: now }, requester);
  }
  return {
    success: true,
    uses,
    purchase: {
      order_id: found.order_id,
      product_id: found.product_id,
      product_title: found.product_title,
      email: found.customer_email,
      amount_cents: found.amount_cents,
      currency: found.currency,
      created_at: found.created_at.toISOString(),
      license_key: found.key,
    },
  };
}
