import type Stripe from "stripe";
import { releaseReservation } from "../../checkout/stock";
import type { EventHandler } from "../../webhooks/process-event";
import { type FulfilmentDeps, fulfilCheckout } from "../fulfil-checkout";

/** Connect `checkout.session.completed` (a buyer paid): fulfil the order. */
export function checkoutCompletedHandler(deps: FulfilmentDeps): EventHandler {
  return async (event) => async (trx, effects) => {
    await fulfilCheckout(deps, trx, event.data.object as Stripe.Checkout.Session, new Date(), effects);
  };
}

/** Connect `checkout.session.expired` (a buyer never paid): give the reserved unit back. */
export const checkoutExpiredHandler: EventHandler = async (event) => async (trx) => {
  await releaseReservation(trx, (event.data.object as Stripe.Checkout.Session).id);
};
