import { sql } from "kysely";
import type { VisitSource } from "../../../contracts/analytics";
import type { Database } from "../../db/database";
import type { CreatedOrder, OrderChangeStep, RefundedOrder } from "../order-lifecycle";
import { addToRollups, utcDay } from "./rollups";
import { hasSource, sourceColumns } from "./visit-source";

/** Keeps where the visit that pressed Buy Now came from with its checkout (same transaction). */
export async function recordCheckoutSource(trx: Database, checkoutId: string, source: VisitSource) {
  if (!hasSource(source)) return;
  await trx
    .insertInto("checkout_sources")
    .values({ checkout_id: checkoutId, ...sourceColumns(source) })
    .execute();
}

/**
 * A new order counts in the analytics roll-ups on its day, for its product and the source its checkout
 * recorded (direct without one). How it was counted is kept, so a refund takes back exactly that. An
 * order refunded at once (nothing delivered) never counts.
 */
export async function countSaleInAnalytics(trx: Database, order: CreatedOrder): Promise<void> {
  if (!order.delivered) return;
  const checkout = await trx
    .selectFrom("checkouts")
    .leftJoin("checkout_sources", "checkout_sources.checkout_id", "checkouts.id")
    .select([
      "checkouts.product_id",
      "checkouts.recovered_from",
      "checkout_sources.referrer_host",
      "checkout_sources.utm_source",
      "checkout_sources.utm_medium",
      "checkout_sources.utm_campaign",
    ])
    .where("checkouts.id", "=", order.checkoutId)
    .executeTakeFirst();
  const source: VisitSource = {
    referrerHost: checkout?.referrer_host || null,
    utmSource: checkout?.utm_source || null,
    utmMedium: checkout?.utm_medium || null,
    utmCampaign: checkout?.utm_campaign || null,
  };
  // A product deleted meanwhile still has its id on the checkout; '' only when even that is gone.
  const productId = order.productId ?? checkout?.product_id ?? "";
  const day = utcDay(order.at);
  // Paid through a checkout recovery link: counted as recovered revenue too.
  const recovered = Boolean(checkout?.recovered_from);
  await trx
    .insertInto("order_attributions")
    .values({
      order_id: order.orderId,
      seller_id: order.sellerId,
      product_id: productId,
      day,
      ...sourceColumns(source),
      recovered,
    })
    .execute();
  await addToRollups(trx, {
    sellerId: order.sellerId,
    productId,
    day,
    source,
    views: 0,
    units: 1,
    revenueCents: order.amountCents,
    recoveredUnits: recovered ? 1 : 0,
    recoveredCents: recovered ? order.amountCents : 0,
  });
}

/**
 * A refund takes the sale out of the day, product and source it was counted in (so revenue is net of
 * refunds, by sale date). The attribution is deleted in the same statement: it is taken back once.
 */
export async function takeBackSaleFromAnalytics(trx: Database, order: RefundedOrder): Promise<void> {
  const counted = await trx
    .deleteFrom("order_attributions")
    .where("order_id", "=", order.orderId)
    .returning([
      "seller_id",
      "product_id",
      // As text: a date column would come back as a Date at local midnight.
      sql<string>`day::text`.as("day"),
      "referrer_host",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "recovered",
    ])
    .executeTakeFirst();
  if (!counted) return;
  await addToRollups(trx, {
    sellerId: counted.seller_id,
    productId: counted.product_id,
    day: counted.day,
    source: {
      referrerHost: counted.referrer_host || null,
      utmSource: counted.utm_source || null,
      utmMedium: counted.utm_medium || null,
      utmCampaign: counted.utm_campaign || null,
    },
    views: 0,
    units: -1,
    revenueCents: -order.amountCents,
    recoveredUnits: counted.recovered ? -1 : 0,
    recoveredCents: counted.recovered ? -order.amountCents : 0,
  });
}

/** A sale counts where its visit came from; a refund takes it back (OrderChanges). */
export const analyticsStep: OrderChangeStep = {
  created: countSaleInAnalytics,
  refunded: takeBackSaleFromAnalytics,
  disputeLost: takeBackSaleFromAnalytics,
};
