import type Stripe from "stripe";
import { type Announce, commitChange } from "../../adapters/events/commit-change";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { countPaidCodeUse } from "../discounts";
import { type FulfilmentDeps, fulfilCheckout } from "./fulfil-checkout";
import { endUnpaidCheckout } from "./stock";

export type SettleDeps = FulfilmentDeps & { db: Database; events: EventBus };

/** What is needed to find a checkout's session on Stripe. */
export interface CheckoutRef {
  id: string;
  stripe_session_id: string | null;
  stripe_account_id: string;
  created_at: Date;
}

/** Our clock and Stripe's may differ: sessions are looked for from this far before a checkout was recorded. */
export const CLOCK_SKEW_SECONDS = 10 * 60;

/**
 * A session read from Stripe on the checkout's account, with its tax breakdown (the rate, the place and
 * why: what the order records). Every read of a session for fulfilment comes through here.
 */
export function retrieveCheckoutSession(
  stripe: Stripe,
  sessionId: string,
  accountId: string,
): Promise<Stripe.Checkout.Session> {
  return stripe.checkout.sessions.retrieve(
    sessionId,
    { expand: ["total_details.breakdown"] },
    { stripeAccount: accountId },
  );
}

/**
 * A checkout's session as Stripe has it: by its id, or, when the id was never recorded (the process
 * died while Stripe answered), by the hold id in its metadata. Undefined: Stripe never made one.
 */
export async function readCheckoutSession(
  stripe: Stripe,
  checkout: CheckoutRef,
): Promise<Stripe.Checkout.Session | undefined> {
  const options = { stripeAccount: checkout.stripe_account_id };
  if (checkout.stripe_session_id) {
    return retrieveCheckoutSession(stripe, checkout.stripe_session_id, checkout.stripe_account_id);
  }
  const since = Math.floor(checkout.created_at.getTime() / 1000) - CLOCK_SKEW_SECONDS;
  // Newest first; the emulator and Stripe both page this list, so no `created` filter is needed.
  for await (const session of stripe.checkout.sessions.list({ limit: 100 }, options)) {
    if (session.created < since) break;
    if (session.metadata?.hold_id === checkout.id) {
      return retrieveCheckoutSession(stripe, session.id, checkout.stripe_account_id);
    }
  }
  return undefined;
}

/**
 * Applies what Stripe answered about a checkout's session, inside the caller's transaction:
 * paid → the one fulfilment; expired, or never made → the checkout ends and its unit goes back;
 * open → nothing yet. Only ever called with a session read from Stripe on the checkout's own account,
 * never with what an event or a request claims. Answers the order id when there is an order.
 */
export async function applyCheckoutSession(
  deps: FulfilmentDeps,
  trx: Database,
  checkoutId: string,
  session: Stripe.Checkout.Session | undefined,
  now: Date,
  announce: Announce,
): Promise<string | undefined> {
  if (session) {
    await trx
      .updateTable("checkouts")
      .set({ stripe_session_id: session.id })
      .where("id", "=", checkoutId)
      .where("stripe_session_id", "is", null)
      .execute();
  }
  // A subscription's checkout is done once complete (a trial pays nothing yet): the membership is
  // Stripe's subscription, which the memberships feature follows through its own events.
  if (session?.mode === "subscription" && session.status === "complete") {
    const checkout = await trx
      .selectFrom("checkouts")
      .select(["state", "discount_code_id"])
      .where("id", "=", checkoutId)
      .forUpdate()
      .executeTakeFirst();
    if (checkout?.state === "paid") return undefined;
    // The code's use counts once, here, as a paid order's does (fulfil-checkout.ts).
    if (checkout?.discount_code_id) {
      await countPaidCodeUse(trx, checkout.discount_code_id, {
        held: checkout.state === "open",
        delivered: true,
      });
    }
    await trx.updateTable("checkouts").set({ state: "paid" }).where("id", "=", checkoutId).execute();
    return undefined;
  }
  if (session?.payment_status === "paid") return fulfilCheckout(deps, trx, session, now, announce);
  if (!session || session.status === "expired") {
    const sellerId = await endUnpaidCheckout(trx, checkoutId);
    if (sellerId) announce(sellerId, { type: "public-pages.changed" });
    // Told once, by whichever call ended it (a redelivered event finds it ended already).
    if (sellerId && session) {
      await deps.orderChanges.checkoutExpired(trx, { checkoutId, sellerId, session, at: now });
    }
  }
  return undefined;
}

/** applyCheckoutSession as a change of its own. */
export async function settleCheckout(
  deps: SettleDeps,
  checkoutId: string,
  session: Stripe.Checkout.Session | undefined,
  now: Date,
): Promise<void> {
  await commitChange(deps, (trx, announce) =>
    applyCheckoutSession(deps, trx, checkoutId, session, now, announce),
  );
}
