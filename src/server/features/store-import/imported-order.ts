import { PURCHASE_RULES } from "../../../contracts/orders";
import type { Database } from "../../db/database";
import { storedLicenseKey } from "../licenses";
import type { OrderChanges } from "../order-lifecycle";
import { importedCheckoutId, importedOrderId } from "./import-ids";
import type { ImportedLicenseKey, ImportedOrder } from "./import-records";

const DAY_MS = 24 * 60 * 60_000;

export interface ImportingStore {
  sellerId: string;
  platform: string;
  storeCurrency: string;
  /** The seller's connected account, when they have one (orders name the account they were paid on). */
  stripeAccountId: string | null;
}

/**
 * Past purchases made on another platform, as orders here, in the caller's transaction: for each a paid
 * checkout row (orders point to one; its session id is ours, never Stripe's), the order with a fresh
 * download window (the same rules as a new order: 3 downloads a file within 30 days of the import), the
 * key the platform issued, and the order lifecycle's import steps. Rows of a batch go in one statement
 * per table. Ids derive from the platform's, so a resumed run finds them instead of making them twice
 * (the caller checks first). Answers each order's id by its platform id.
 */
export async function createImportedOrders(
  trx: Database,
  orderChanges: OrderChanges,
  store: ImportingStore,
  entries: readonly { order: ImportedOrder; productId: string }[],
  now: Date,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (entries.length === 0) return ids;
  const account = store.stripeAccountId ?? "imported";
  const rows = entries.map(({ order, productId }) => {
    const orderId = importedOrderId(store.sellerId, store.platform, order.externalId);
    const checkoutId = importedCheckoutId(store.sellerId, store.platform, order.externalId);
    ids.set(order.externalId, orderId);
    const createdAt = new Date(order.createdAt);
    const refunded = order.status === "refunded";
    // What the creator was paid and kept: a partial refund comes off (a full one leaves the order refunded).
    const settled = order.settlement ?? {
      amountCents: order.amountCents,
      currency: order.currency,
      refundedCents: order.refundedCents,
    };
    const kept = Math.max(settled.amountCents - settled.refundedCents, 0);
    return { order, productId, orderId, checkoutId, createdAt, refunded, kept, settled };
  });
  await trx
    .insertInto("checkouts")
    .values(
      rows.map((row) => ({
        id: row.checkoutId,
        stripe_session_id: row.checkoutId,
        stripe_account_id: account,
        seller_id: store.sellerId,
        product_id: row.productId,
        reservation: "none" as const,
        state: "paid" as const,
        network_hash: null,
        visitor_hash: null,
        expires_at: row.createdAt,
        created_at: row.createdAt,
        discount_code_id: null,
        code_hold_ends_at: null,
        discount_code: row.order.discountCode,
        original_price_cents: row.order.amountCents + row.order.discountCents,
        discount_cents: row.order.discountCents,
        currency: row.order.currency,
      })),
    )
    .execute();
  const windowEnds = new Date(now.getTime() + PURCHASE_RULES.downloadWindowDays * DAY_MS);
  await trx
    .insertInto("orders")
    .values(
      rows.map((row) => ({
        id: row.orderId,
        stripe_session_id: row.checkoutId,
        stripe_account_id: account,
        payment_intent_id: null,
        seller_id: store.sellerId,
        product_id: row.productId,
        product_title: row.order.productTitle,
        customer_email: row.order.email.toLowerCase(),
        amount_cents: row.order.amountCents,
        currency: row.order.currency,
        settlement_cents: row.refunded ? row.settled.amountCents : row.kept,
        settlement_currency: row.settled.currency,
        status: row.refunded ? ("refunded" as const) : ("completed" as const),
        refunded_at: row.refunded ? row.createdAt : null,
        download_window_ends_at: windowEnds,
        created_at: row.createdAt,
        discount_code: row.order.discountCode,
        discount_cents: row.order.discountCents,
        buyer_name: row.order.buyerName,
        imported_from: store.platform,
      })),
    )
    .execute();
  for (const row of rows) {
    if (row.order.licenseKey && !row.refunded)
      await writeImportedKey(
        trx,
        store.sellerId,
        row.orderId,
        row.productId,
        row.order.licenseKey,
        0,
        false,
        row.createdAt,
      );
  }
  await orderChanges.imported(
    trx,
    rows.map((row) => ({
      orderId: row.orderId,
      sellerId: store.sellerId,
      productId: row.productId,
      checkoutId: row.checkoutId,
      email: row.order.email.toLowerCase(),
      // Totals add up the store currency: a sale in another currency is listed, not added.
      amountCents: row.settled.currency === store.storeCurrency ? row.kept : 0,
      delivered: !row.refunded,
      at: row.createdAt,
    })),
  );
  return ids;
}

/**
 * A platform's key for an order here, with its use count and state (a later record of the same key
 * updates them). False when another order of the product holds the same key: keys are unique per product.
 */
export async function writeImportedKey(
  trx: Database,
  sellerId: string,
  orderId: string,
  productId: string,
  key: string,
  uses: number,
  disabled: boolean,
  at: Date,
): Promise<boolean> {
  const stored = storedLicenseKey(key);
  if (!stored) return false;
  const holder = await trx
    .selectFrom("license_keys")
    .select("order_id")
    .where("product_id", "=", productId)
    .where("key", "=", stored)
    .executeTakeFirst();
  if (holder && holder.order_id !== orderId) return false;
  await trx
    .insertInto("license_keys")
    .values({
      order_id: orderId,
      seller_id: sellerId,
      product_id: productId,
      key: stored,
      uses,
      disabled_at: disabled ? at : null,
      created_at: at,
    })
    .onConflict((conflict) =>
      conflict.column("order_id").doUpdateSet({ key: stored, uses, disabled_at: disabled ? at : null }),
    )
    .execute();
  return true;
}

export type { ImportedLicenseKey };
