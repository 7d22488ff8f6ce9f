import Stripe from "stripe";
import { ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { getPublicProduct } from "../products/public-product";
import { giveUnitBack, takeUnit } from "./stock";

const EXPIRY_MARGIN_MS = 15_000;

export interface CheckoutDeps {
  db: Database;
  stripe: Stripe;
  appUrl: string;
}

/**
 * create-checkout: a Stripe Checkout session for one product, as a direct charge on the seller's
 * own Stripe account with no application fee (we take 0%). A limited product's unit is reserved
 * first and given back if Stripe refuses.
 */
export async function createBuyerCheckout(deps: CheckoutDeps, productId: string, now: Date): Promise<string> {
  const product = await getPublicProduct(deps.db, productId, now);
  if (!product.purchasable) {
    throw new AppError(
      "not_purchasable",
      409,
      product.soldOut ? ORDER_MESSAGES.soldOut : ORDER_MESSAGES.notPurchasable,
    );
  }
  const seller = await deps.db
    .selectFrom("profiles")
    .select("stripe_connect_account_id")
    .where("id", "=", product.seller.id)
    .executeTakeFirstOrThrow();
  const account = seller.stripe_connect_account_id!;

  const limited = product.inventoryType === "limited";
  if (limited && !(await takeUnit(deps.db, productId))) {
    throw new AppError("sold_out", 409, ORDER_MESSAGES.soldOut);
  }
  // Stripe wants at least 30 minutes from *its* clock when it creates the session, a moment after ours.
  let session: Stripe.Checkout.Session | undefined;
  const expiresAt = new Date(now.getTime() + PURCHASE_RULES.checkoutMinutes * 60_000 + EXPIRY_MARGIN_MS);
  try {
    const metadata = { product_id: product.id, seller_id: product.seller.id };
    const cover = product.coverImageUrl?.startsWith("/")
      ? `${deps.appUrl}${product.coverImageUrl}`
      : product.coverImageUrl;
    session = await deps.stripe.checkout.sessions
      .create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: product.priceCents,
                product_data: {
                  name: product.title,
                  ...(cover?.startsWith("https://") ? { images: [cover] } : {}),
                },
              },
            },
          ],
          metadata,
          payment_intent_data: { metadata },
          expires_at: Math.floor(expiresAt.getTime() / 1000),
          success_url: `${deps.appUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${deps.appUrl}/product/${product.id}`,
        },
        { stripeAccount: account },
      )
      .catch((error: unknown) => {
        // The seller's Stripe account refused (restricted, closed...): a buyer can only be told to wait.
        if (error instanceof Stripe.errors.StripeError)
          throw new AppError("not_purchasable", 409, ORDER_MESSAGES.notPurchasable);
        throw error;
      });
    await deps.db
      .insertInto("checkouts")
      .values({
        stripe_session_id: session.id,
        seller_id: product.seller.id,
        stripe_account_id: account,
        product_id: product.id,
        reservation: limited ? "held" : "none",
        expires_at: expiresAt,
      })
      .execute();
    if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
    return session.url;
  } catch (error) {
    if (limited) await giveUnitBack(deps.db, productId);
    // A session nobody recorded must not stay payable: it would take money without an order.
    if (session) {
      await deps.stripe.checkout.sessions.expire(session.id, {}, { stripeAccount: account }).catch(() => {});
    }
    throw error;
  }
}
