import { sql } from "kysely";
import type { DiscountCode } from "../../../contracts/discounts";
import type { Database } from "../../db/database";
import { discountCodeStatus } from "./discount-price";

/**
 * The seller's codes, newest first, each with its uses so far and the revenue of its paid, not
 * refunded orders (summed on the orders' partial index by code, never in the browser).
 */
export async function listDiscountCodes(
  db: Database,
  sellerId: string,
  now: Date,
  onlyId?: string,
): Promise<DiscountCode[]> {
  const revenue = db
    .selectFrom("orders")
    .select(["discount_code_id", sql<number>`sum(amount_cents)::bigint`.as("revenue_cents")])
    .where("seller_id", "=", sellerId)
    .where("status", "=", "completed")
    // A dispute the seller lost took the money back, as a refund does.
    .where((eb) => eb.or([eb("dispute_status", "is", null), eb("dispute_status", "!=", "lost")]))
    .where("discount_code_id", "is not", null)
    .groupBy("discount_code_id");
  let codes = db
    .selectFrom("discount_codes")
    .leftJoin(revenue.as("revenue"), "revenue.discount_code_id", "discount_codes.id")
    .selectAll("discount_codes")
    .select(sql<number>`coalesce(revenue.revenue_cents, 0)`.as("revenue_cents"))
    .where("discount_codes.seller_id", "=", sellerId);
  let chosen = db
    .selectFrom("discount_code_products")
    .innerJoin("discount_codes", "discount_codes.id", "discount_code_products.discount_code_id")
    .select(["discount_code_products.discount_code_id", "discount_code_products.product_id"])
    .where("discount_codes.seller_id", "=", sellerId);
  if (onlyId) {
    codes = codes.where("discount_codes.id", "=", onlyId);
    chosen = chosen.where("discount_codes.id", "=", onlyId);
  }
  const [rows, products] = await Promise.all([
    codes.orderBy("discount_codes.created_at", "desc").orderBy("discount_codes.id", "desc").execute(),
    chosen.orderBy("discount_code_products.product_id").execute(),
  ]);
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    kind: row.kind,
    value: row.value,
    currency: row.kind === "amount" ? row.currency : null,
    allProducts: row.all_products,
    productIds: products.filter((p) => p.discount_code_id === row.id).map((p) => p.product_id),
    startsAt: row.starts_at?.toISOString() ?? null,
    endsAt: row.ends_at?.toISOString() ?? null,
    maxUses: row.max_uses,
    membershipDuration: row.membership_duration,
    paused: row.paused,
    status: discountCodeStatus(row, now, { countHeldUses: false }),
    uses: row.uses_used,
    usesHeld: row.uses_reserved,
    revenueCents: Number(row.revenue_cents),
    createdAt: row.created_at.toISOString(),
  }));
}
