import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { DISCOUNT_REFUSAL_MESSAGES } from "../../../contracts/discounts";
import { DEFAULT_LOCALE } from "../../../contracts/i18n/locales";
import { ORDER_MESSAGES } from "../../../contracts/orders";
import { FREE_CLAIM_MESSAGES } from "../../../contracts/products";
import { commitChange } from "../../adapters/events/commit-change";
import { AppError } from "../../http/errors";
import type { CheckoutVisitor } from "../../http/visitor";
import type { CodeTry } from "../discounts";
import { holdCodeUse } from "../discounts";
import type { SettleDeps } from "../orders";
import { completeCheckout, freshLinkEmail, purchaseQuery, takeUnit, toBuyerPurchase } from "../orders";
import { getPublicProduct } from "../products";
import { decidePurchasePrice } from "./purchase-price";

export const FREE_CLAIM_LIMITS = {
  perIp: { name: "free-claim:ip", limit: 10, windowSeconds: 60 * 60 },
  perEmail: { name: "free-claim:email", limit: 3, windowSeconds: 60 * 60 },
};

const newClaimId = () => `free_${randomBytes(12).toString("base64url")}`;

/**
 * "Email me the download": a product the buyer gets for $0 (a free product, a pay-what-you-want
 * product whose minimum is $0, or a code taking the whole price) is delivered without Stripe, as an
 * order of $0 through the same fulfilment as a paid one (receipt, download link, library, sales, CSV).
 * The link goes to the email only, so the address is proven by whoever opens it.
 *
 * - Abuse: rate limited per IP and per email (FREE_CLAIM_LIMITS, by the route, before the code is
 *   read); the seller's plan must allow sales (Stripe Connect is not needed); an email that already has
 *   the product gets its link again instead of a second order.
 * - Stock and the code's use are taken with the same conditional updates as a checkout, in the one
 *   transaction that records the claim and its order, so a limited product never over-delivers.
 * - A network holding an open paid checkout of the product (a unit on hold) is told to finish it
 *   first, as a second Buy Now from it would be (the one-hold-per-network index).
 */
export async function claimFreeProduct(
  deps: SettleDeps,
  claim: { productId: string; email: string; code: CodeTry | undefined },
  visitor: CheckoutVisitor,
  now: Date,
): Promise<void> {
  const email = claim.email.toLowerCase();
  const product = await getPublicProduct(deps.db, claim.productId, now);
  if (!product.purchasable) {
    const message = product.soldOut ? ORDER_MESSAGES.soldOut : ORDER_MESSAGES.notPurchasable;
    throw new AppError("not_purchasable", 409, message);
  }
  const price = await decidePurchasePrice(deps.db, product, { code: claim.code, amount: "0" }, now);
  if (price.amountCents !== 0) throw new AppError("not_free", 422, FREE_CLAIM_MESSAGES.notFree);
  if (await resendOwnedProduct(deps, product.id, email, visitor, now)) return;

  const seller = await deps.db
    .selectFrom("profiles")
    .select("stripe_connect_account_id")
    .where("id", "=", product.seller.id)
    .executeTakeFirstOrThrow();
  const limited = product.inventoryType === "limited";
  const id = newClaimId();
  try {
    // The order shows in the seller's sales; a unit taken shows on their pages (any event drops them).
    await commitChange(deps, async (trx, announce) => {
      if (limited && !(await takeUnit(trx, product.id))) {
        throw new AppError("sold_out", 409, ORDER_MESSAGES.soldOut);
      }
      const codeId = price.discount?.codeId ?? null;
      if (codeId && !(await holdCodeUse(trx, codeId))) {
        throw new AppError("discount_refused", 422, DISCOUNT_REFUSAL_MESSAGES.used_up, { reason: "used_up" });
      }
      const checkout = await trx
        .insertInto("checkouts")
        .values({
          id,
          // No Stripe session: the claim's own id keys its order, as a session id keys a paid one.
          stripe_session_id: id,
          seller_id: product.seller.id,
          // Orders record the seller's account; a seller who never connected Stripe has none.
          stripe_account_id: seller.stripe_connect_account_id ?? "",
          product_id: product.id,
          reservation: limited ? "held" : "none",
          network_hash: visitor.networkHash,
          visitor_hash: visitor.visitorHash,
          expires_at: now,
          created_at: now,
          discount_code_id: codeId,
          discount_code: price.discount?.code ?? null,
          original_price_cents: product.priceCents,
          discount_cents: price.discount?.discountCents ?? 0,
          // The receipt speaks the language the claim was made in.
          buyer_locale: visitor.locale ?? DEFAULT_LOCALE,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await completeCheckout(
        deps,
        trx,
        checkout,
        {
          sessionId: id,
          email,
          money: {
            amountCents: 0,
            currency: product.currency,
            settlementCents: 0,
            settlementCurrency: product.currency,
          },
          paymentIntentId: null,
        },
        now,
        announce,
      );
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === "23505")
      throw new AppError("checkout_open", 409, ORDER_MESSAGES.checkoutAlreadyOpen);
    throw error;
  }
}

/**
 * An email that already has the product (within its download window) is sent its link again instead
 * of a second order: the answer is the same "Check your email" either way. The email speaks the
 * language of this claim, else the order's.
 */
async function resendOwnedProduct(
  deps: SettleDeps,
  productId: string,
  email: string,
  visitor: CheckoutVisitor,
  now: Date,
) {
  const row = await purchaseQuery(deps.db)
    .where("orders.product_id", "=", productId)
    .where(sql<string>`lower(orders.customer_email)`, "=", email)
    .where("orders.status", "=", "completed")
    .where("orders.download_window_ends_at", ">", now)
    .orderBy("orders.created_at", "desc")
    .executeTakeFirst();
  if (!row) return false;
  const purchase = toBuyerPurchase(row, deps.linkKey, now);
  if (purchase.downloadPath) {
    await deps.outbox.enqueue(freshLinkEmail(purchase, deps.appUrl, visitor.locale ?? row.buyer_locale));
  }
  return true;
}
