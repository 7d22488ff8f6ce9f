import { randomBytes } from "node:crypto";
import type { Insertable } from "kysely";
import Stripe from "stripe";
import { ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import type { Database } from "../../db/database";
import type { CheckoutTable } from "../../db/schema";
import { AppError } from "../../http/errors";
import {
  type CheckoutRef,
  readCheckoutSession,
  type SettleDeps,
  settleCheckout,
} from "../orders/checkout-session";
import { closeCheckout } from "../orders/settle-checkouts";
import { getPublicProduct } from "../products/public-product";
import { endUnpaidCheckout, takeUnit } from "./stock";
import type { CheckoutVisitor } from "./visitor";

const EXPIRY_MARGIN_MS = 15_000;

export type CheckoutDeps = SettleDeps;

const newHoldId = () => `hold_${randomBytes(12).toString("base64url")}`;
const alreadyOpen = () => new AppError("checkout_open", 409, ORDER_MESSAGES.checkoutAlreadyOpen);

/**
 * create-checkout: a Stripe Checkout session for one product, as a direct charge on the seller's
 * own Stripe account with no application fee (we take 0%).
 * A limited product's unit is taken and the checkout recorded in one transaction before Stripe is
 * asked, so a crash at any point leaves a record the janitor settles (settle-checkouts.ts). One
 * network holds one unit of a product at a time: the same browser gets its open checkout back.
 */
export async function createBuyerCheckout(
  deps: CheckoutDeps,
  productId: string,
  visitor: CheckoutVisitor,
  now: Date,
): Promise<string> {
  const product = await getPublicProduct(deps.db, productId, now);
  const limited = product.inventoryType === "limited";
  // First: the buyer holding the last unit must get their checkout back, not "sold out".
  const networkHold = limited ? await openCheckoutOfNetwork(deps, productId, visitor, now) : undefined;
  if (networkHold?.url) return networkHold.url;
  // Someone else on this network holds a unit: they are told to wait, unless nothing is left anyway.
  if (networkHold && product.purchasable) throw alreadyOpen();
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

  // Stripe wants at least 30 minutes from *its* clock when it creates the session, a moment after ours.
  const expiresAt = new Date(now.getTime() + PURCHASE_RULES.checkoutMinutes * 60_000 + EXPIRY_MARGIN_MS);
  const hold: CheckoutRef = {
    id: newHoldId(),
    stripe_session_id: null,
    stripe_account_id: account,
    created_at: now,
  };
  await recordHold(deps.db, limited, {
    ...hold,
    seller_id: product.seller.id,
    product_id: product.id,
    reservation: limited ? "held" : "none",
    network_hash: visitor.networkHash,
    visitor_hash: visitor.visitorHash,
    expires_at: expiresAt,
  });
  try {
    const metadata = { product_id: product.id, seller_id: product.seller.id, hold_id: hold.id };
    const cover = product.coverImageUrl?.startsWith("/")
      ? `${deps.appUrl}${product.coverImageUrl}`
      : product.coverImageUrl;
    const session = await deps.stripe.checkout.sessions.create(
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
      // A retry of this request (the SDK's own) can never make a second session for the hold.
      { stripeAccount: account, idempotencyKey: `checkout-${hold.id}` },
    );
    const attached = await deps.db
      .updateTable("checkouts")
      .set({ stripe_session_id: session.id })
      .where("id", "=", hold.id)
      .where("state", "=", "open")
      .returning("id")
      .executeTakeFirst();
    // The janitor gave the hold up while Stripe was slow to answer: nobody may pay for it now.
    if (!attached) throw new AppError("checkout_interrupted", 503, ORDER_MESSAGES.checkoutInterrupted);
    if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
    return session.url;
  } catch (error) {
    // Nobody was given this checkout's page: end it now, or the janitor will if this fails too.
    await abandonHold(deps, hold, error, now).catch(() => {});
    // The seller's Stripe account refused (restricted, closed...): a buyer can only be told to wait.
    if (error instanceof Stripe.errors.StripeError) {
      throw new AppError("not_purchasable", 409, ORDER_MESSAGES.notPurchasable);
    }
    throw error;
  }
}

/**
 * The open checkout of this product that the buyer's network holds a unit for, if any: with its
 * Checkout page when it is this browser's own, without it when it is another browser's. One that has
 * ended (paid, expired) is settled with Stripe first, so the network may hold a new unit.
 */
async function openCheckoutOfNetwork(
  deps: CheckoutDeps,
  productId: string,
  visitor: CheckoutVisitor,
  now: Date,
): Promise<{ url?: string } | undefined> {
  const held = await deps.db
    .selectFrom("checkouts")
    .select(["id", "stripe_session_id", "stripe_account_id", "created_at", "visitor_hash"])
    .where("product_id", "=", productId)
    .where("network_hash", "=", visitor.networkHash)
    .where("reservation", "=", "held")
    .executeTakeFirst();
  if (!held) return undefined;
  // Its session is still being created (or the request creating it died: the janitor ends it).
  if (!held.stripe_session_id) return {};
  const session = await readCheckoutSession(deps.stripe, held);
  if (session?.status === "open") {
    return held.visitor_hash === visitor.visitorHash && session.url ? { url: session.url } : {};
  }
  await settleCheckout(deps, held.id, session, now);
  return undefined;
}

/** Takes the unit (if limited) and records the checkout, together or not at all. */
async function recordHold(
  db: Database,
  limited: boolean,
  checkout: Insertable<CheckoutTable> & { product_id: string },
): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      if (limited && !(await takeUnit(trx, checkout.product_id))) {
        throw new AppError("sold_out", 409, ORDER_MESSAGES.soldOut);
      }
      await trx.insertInto("checkouts").values(checkout).execute();
    });
  } catch (error) {
    // Another Buy Now from this network got there first (the same buyer pressing twice, say).
    if ((error as { code?: unknown }).code === "23505") throw alreadyOpen();
    throw error;
  }
}

/**
 * A request Stripe refused (4xx) made no session: the hold simply ends. Otherwise Stripe may have made
 * one (a timeout, a lost answer): closeCheckout finds it by the hold id and expires it.
 */
function abandonHold(deps: CheckoutDeps, hold: CheckoutRef, error: unknown, now: Date) {
  const refused = error instanceof Stripe.errors.StripeError && (error.statusCode ?? 500) < 500;
  return refused ? endUnpaidCheckout(deps.db, hold.id) : closeCheckout(deps, hold, now);
}
