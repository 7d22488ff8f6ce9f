import type Stripe from "stripe";
import type { Database } from "../../../db/database";
import type { EventHandler } from "../../webhooks";
import { applyCheckoutSession, retrieveCheckoutSession } from "../checkout-session";
import type { FulfilmentDeps } from "../fulfil-checkout";

/**
 * Connect `checkout.session.completed` (a buyer paid) and `checkout.session.expired` (a buyer never
 * did). A signed event is still only a hint: it must come from the checkout's own account, and what
 * happened (paid or not, amount, email) is read back from Stripe on that account, before the transaction.
 */
export function checkoutSessionHandler(deps: FulfilmentDeps & { db: Database }): EventHandler {
  return async (event) => {
    const { id } = event.data.object as Stripe.Checkout.Session;
    const checkout = await deps.db
      .selectFrom("checkouts")
      .select(["id", "stripe_account_id"])
      .where("stripe_session_id", "=", id)
      .executeTakeFirst();
    if (!checkout || event.account !== checkout.stripe_account_id) return undefined;
    const session = await retrieveCheckoutSession(deps.stripe, id, checkout.stripe_account_id);
    return async (trx, announce, now) => {
      await applyCheckoutSession(deps, trx, checkout.id, session, now, announce);
    };
  };
}
