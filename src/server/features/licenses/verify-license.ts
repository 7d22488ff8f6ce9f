import { sql } from "kysely";
import {
  LICENSE_KEY_FORMAT,
  LICENSE_LIMITS,
  LICENSE_MESSAGES,
  normalizeLicenseKey,
  type VerifiedLicense,
  verifyLicenseSchema,
} from "../../../contracts/licenses";
import type { Database } from "../../db/database";
import { AppError, badRequest } from "../../http/errors";
import { enforceRateLimit } from "../../http/rate-limit";

export interface VerifyLicenseDeps {
  db: Database;
  now: () => Date;
}

const KEY_SHAPE = new RegExp(
  `^[${LICENSE_KEY_FORMAT.alphabet}]{${LICENSE_KEY_FORMAT.groupLength}}(-[${LICENSE_KEY_FORMAT.alphabet}]{${LICENSE_KEY_FORMAT.groupLength}}){${LICENSE_KEY_FORMAT.groups - 1}}$`,
);

type FoundKey = NonNullable<Awaited<ReturnType<typeof findKey>>>;

/** A key of this product with its order, through the (product_id, key) unique index. */
function findKey(db: Database, productId: string, key: string) {
  return db
    .selectFrom("license_keys")
    .innerJoin("orders", "orders.id", "license_keys.order_id")
    .select([
      "license_keys.order_id",
      "license_keys.product_id",
      "license_keys.key",
      "license_keys.disabled_at",
      "license_keys.uses",
      "orders.status",
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

/** Why a found key is refused, or undefined when it is valid. */
function refusalOf(found: FoundKey): AppError | undefined {
  if (found.status === "refunded") return new AppError("license_refunded", 403, LICENSE_MESSAGES.refunded);
  if (found.disabled_at) return new AppError("license_disabled", 403, LICENSE_MESSAGES.disabled);
  return undefined;
}

/**
 * `POST /api/v1/licenses/verify`: whether a key is valid for a product, for the seller's software. Public
 * (no account, no cookie), so it is rate limited per IP before anything is read and per key once the key
 * is known (unknown keys are not counted per key: guessing is what the IP limit slows down). A valid key's
 * use is counted with one conditional `uses = uses + 1`, which also re-checks that the key is enabled and
 * its order not refunded, so a disable or refund landing meanwhile is never answered as valid.
 * Another product's key is answered exactly like an unknown one.
 */
export async function verifyLicense(
  deps: VerifyLicenseDeps,
  body: unknown,
  ip: string,
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
  const key = normalizeLicenseKey(parsed.data.license_key);
  if (!KEY_SHAPE.test(key)) throw unknownKey();

  let found = await findKey(deps.db, productId, key);
  if (!found) throw unknownKey();
  await enforceRateLimit(deps.db, LICENSE_LIMITS.perKey, found.order_id, LICENSE_MESSAGES.tooManyForKey, now);
  const refusal = refusalOf(found);
  if (refusal) throw refusal;

  let uses = found.uses;
  if (increment) {
    const counted = await deps.db
      .updateTable("license_keys")
      .set({ uses: sql`uses + 1`, last_verified_at: now })
      .where("order_id", "=", found.order_id)
      .where("disabled_at", "is", null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("orders")
            .select("orders.id")
            .whereRef("orders.id", "=", "license_keys.order_id")
            .where("orders.status", "=", "completed"),
        ),
      )
      .returning("uses")
      .executeTakeFirst();
    if (!counted) {
      // Disabled or refunded between the read and the count: answer what it is now.
      found = await findKey(deps.db, productId, key);
      throw (found && refusalOf(found)) ?? unknownKey();
    }
    uses = counted.uses;
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
