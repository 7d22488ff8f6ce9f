import { sql } from "kysely";
import type { Database } from "../../db/database";
import type { OrderChangeStep } from "../order-lifecycle";
import { newLicenseKey } from "./license-key";

/**
 * Called by its step of OrderChanges, in the order's transaction, for a delivered order: one key when its product
 * issues license keys, none otherwise. One statement reads the product's setting and inserts, so an
 * order made while the setting is off never gets one later by accident.
 */
export async function issueLicenseKey(
  trx: Database,
  order: { orderId: string; sellerId: string; productId: string | null; at: Date },
): Promise<void> {
  if (!order.productId) return;
  await trx
    .insertInto("license_keys")
    .columns(["order_id", "seller_id", "product_id", "key", "created_at"])
    .expression((eb) =>
      eb
        .selectFrom("products")
        .select((inner) => [
          inner.val(order.orderId).as("order_id"),
          inner.val(order.sellerId).as("seller_id"),
          "products.id",
          inner.val(newLicenseKey()).as("key"),
          sql<Date>`cast(${order.at} as timestamptz)`.as("created_at"),
        ])
        .where("products.id", "=", order.productId)
        .where("products.issue_license_keys", "=", true),
    )
    .onConflict((conflict) => conflict.column("order_id").doNothing())
    .execute();
}

/** A delivered order of a product that issues keys gets one (OrderChanges). */
export const licenseKeysStep: OrderChangeStep = {
  created: async (trx, order) => {
    if (order.delivered) await issueLicenseKey(trx, order);
  },
};
