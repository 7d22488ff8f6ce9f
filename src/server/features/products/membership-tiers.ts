import { randomBytes } from "node:crypto";
import { type ExpressionBuilder, sql } from "kysely";
import { type CheckedTier, MEMBERSHIP_MESSAGES, type Tier } from "../../../contracts/memberships";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";
import { AppError } from "../../http/errors";

/**
 * A membership's tiers (1 to 5, `membership_tiers`) and the product files each gives access to. Like the
 * file list (product-files.ts), the tier list is only written here, inside the product's own transaction,
 * as a whole: a tier sent with its id is kept (its members stay on it), one without is new, and one left
 * out is deleted, or, while members still have it, kept for them as removed and offered to nobody.
 */

const newTierId = () => `tier_${randomBytes(9).toString("base64url")}`;

/** Statuses in which a member still holds their tier (product rules, "Memberships"). */
export const LIVE_MEMBERSHIP_STATUSES = ["trialing", "active", "past_due", "unpaid", "incomplete", "paused"];

/** The product's tiers not removed, in order, with their files' ids: one json column of a product read. */
export function tiersColumn(_eb: ExpressionBuilder<DB, "products">) {
  return sql<Tier[] | null>`(
    select json_agg(json_build_object(
      'id', t.id,
      'name', t.name,
      'description', t.description,
      'monthlyPriceCents', t.monthly_price_cents,
      'yearlyPriceCents', t.yearly_price_cents,
      'trialDays', t.trial_days,
      'closed', t.closed,
      'fileIds', coalesce((
        select json_agg(tf.product_file_id order by pf.position)
        from membership_tier_files tf join product_files pf on pf.id = tf.product_file_id
        where tf.tier_id = t.id
      ), '[]'::json),
      'currency', (select p.store_currency from profiles p where p.id = t.seller_id),
      'prices', coalesce((
        select json_agg(json_build_object(
          'currency', tp.currency,
          'monthlyPriceCents', tp.monthly_cents,
          'yearlyPriceCents', tp.yearly_cents
        ) order by tp.currency)
        from membership_tier_currency_prices tp where tp.tier_id = t.id
      ), '[]'::json)
    ) order by t.position)
    from membership_tiers t
    where t.product_id = products.id and t.removed_at is null
  )`.as("tiers");
}

/** Writes the whole tier list of a membership product (see the top of this file). */
export async function writeTiers(
  trx: Database,
  sellerId: string,
  productId: string,
  tiers: CheckedTier[],
  now: Date,
): Promise<void> {
  const existing = await trx
    .selectFrom("membership_tiers")
    .select(["id"])
    .where("product_id", "=", productId)
    .where("removed_at", "is", null)
    .execute();
  const existingIds = new Set(existing.map((tier) => tier.id));
  if (tiers.some((tier) => tier.id !== undefined && !existingIds.has(tier.id))) {
    throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.unknownTier, { field: "tiers" });
  }
  const files = await trx
    .selectFrom("product_files")
    .select(["id", "upload_id"])
    .where("product_id", "=", productId)
    .execute();
  const fileIdOf = (ref: { id?: string; uploadId?: string }) =>
    files.find((file) => (ref.id !== undefined ? file.id === ref.id : file.upload_id === ref.uploadId))?.id;

  const kept = new Set(tiers.flatMap((tier) => (tier.id ? [tier.id] : [])));
  await retireTiers(
    trx,
    [...existingIds].filter((id) => !kept.has(id)),
    now,
  );
  for (const [position, tier] of tiers.entries()) {
    const fileIds = tier.files.map(fileIdOf);
    if (fileIds.some((id) => id === undefined)) {
      throw new AppError("validation_error", 400, MEMBERSHIP_MESSAGES.tierFileUnknown, { field: "tiers" });
    }
    const columns = {
      position,
      name: tier.name,
      description: tier.description,
      monthly_price_cents: tier.monthlyPriceCents,
      yearly_price_cents: tier.yearlyPriceCents,
      trial_days: tier.trialDays,
      closed: tier.closed,
      updated_at: now,
    };
    const tierId = tier.id ?? newTierId();
    if (tier.id) {
      await trx.updateTable("membership_tiers").set(columns).where("id", "=", tier.id).execute();
      await trx.deleteFrom("membership_tier_files").where("tier_id", "=", tier.id).execute();
    } else {
      await trx
        .insertInto("membership_tiers")
        .values({ id: tierId, product_id: productId, seller_id: sellerId, created_at: now, ...columns })
        .execute();
    }
    await writeTierOtherPrices(trx, sellerId, tierId, tier.prices);
    const unique = [...new Set(fileIds as string[])];
    if (unique.length > 0) {
      await trx
        .insertInto("membership_tier_files")
        .values(unique.map((productFileId) => ({ tier_id: tierId, product_file_id: productFileId })))
        .execute();
    }
  }
}

/** Replaces a tier's fixed prices in other currencies (docs/money.md), in the caller's transaction. */
async function writeTierOtherPrices(
  trx: Database,
  sellerId: string,
  tierId: string,
  prices: CheckedTier["prices"],
): Promise<void> {
  await trx.deleteFrom("membership_tier_currency_prices").where("tier_id", "=", tierId).execute();
  if (prices.length === 0) return;
  await trx
    .insertInto("membership_tier_currency_prices")
    .values(
      prices.map((price) => ({
        tier_id: tierId,
        seller_id: sellerId,
        currency: price.currency,
        monthly_cents: price.monthlyPriceCents,
        yearly_cents: price.yearlyPriceCents,
      })),
    )
    .execute();
}

/**
 * Tiers taken off the product: deleted when nobody holds them, else kept for their members as removed
 * (moved past the five positions' range check by keeping their position; they are never listed).
 */
async function retireTiers(trx: Database, tierIds: string[], now: Date): Promise<void> {
  if (tierIds.length === 0) return;
  const held = await trx
    .selectFrom("memberships")
    .select("tier_id")
    .distinct()
    .where("tier_id", "in", tierIds)
    .where("status", "in", LIVE_MEMBERSHIP_STATUSES)
    .execute();
  const heldIds = new Set(held.map((row) => row.tier_id));
  const free = tierIds.filter((id) => !heldIds.has(id));
  if (free.length > 0) await trx.deleteFrom("membership_tiers").where("id", "in", free).execute();
  const kept = tierIds.filter((id) => heldIds.has(id));
  if (kept.length > 0) {
    await trx
      .updateTable("membership_tiers")
      .set({ removed_at: now, closed: true, updated_at: now })
      .where("id", "in", kept)
      .execute();
  }
}

/** Whether a membership product still has members holding a tier (deleting it is refused then). */
export async function hasLiveMembers(db: Database, productId: string): Promise<boolean> {
  const row = await db
    .selectFrom("memberships")
    .select("id")
    .where("product_id", "=", productId)
    .where("status", "in", LIVE_MEMBERSHIP_STATUSES)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
