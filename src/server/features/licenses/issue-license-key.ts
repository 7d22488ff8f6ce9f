import { sql } from "kysely";
import type { Database } from "../../db/database";
import type { CreatedOrder, OrderChangeStep } from "../order-lifecycle";
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

const issueIfDelivered: OrderChangeStep["created"] = async (trx, order) => {
  if (order.delivered) await issueLicenseKey(trx, order);
};

/**
 * A delivered order of a product that issues keys gets one (OrderChanges). An imported order keeps the
 * key its platform issued (written before this step, which then adds none); one without gets a new one.
 */
export const licenseKeysStep: OrderChangeStep = {
  created: issueIfDelivered,
  imported: issueIfDelivered,
  importedMany: issueImportedKeys,
};

/** A store import's batch: a new key for each delivered order of a product that issues keys and has none yet. */
async function issueImportedKeys(trx: Database, orders: readonly CreatedOrder[]): Promise<void> {
  const delivered = orders.filter((order) => order.delivered && order.productId);
  if (delivered.length === 0) return;
  const issuing = await trx
    .selectFrom("products")
    .select("id")
    .where("id", "in", [...new Set(delivered.map((order) => order.productId!))])
    .where("issue_license_keys", "=", true)
    .execute();
  const products = new Set(issuing.map((product) => product.id));
  const keyed = delivered.filter((order) => products.has(order.productId!));
  if (keyed.length === 0) return;
  await trx
    .insertInto("license_keys")
    .values(
      keyed.map((order) => ({
        order_id: order.orderId,
        seller_id: order.sellerId,
        product_id: order.productId!,
        key: newLicenseKey(),
        created_at: order.at,
      })),
    )
    // An order keeps the key its platform issued (written before this step).
    .onConflict((conflict) => conflict.column("order_id").doNothing())
    .execute();
}
