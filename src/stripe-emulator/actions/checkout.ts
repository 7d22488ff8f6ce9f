import type Stripe from "stripe";
import { type CardCheck, type CardInput, checkCard } from "../cards.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, resourceMissing } from "../errors.js";
import { newId } from "../ids.js";
import { customerDetails } from "../objects/checkout-session.js";
import { buildCustomer } from "../objects/customer.js";
import { redeemCoupon } from "../resources/coupons.js";
import type { SavedCard, Scope } from "../state/types.js";
import { AUTOMATIC, type EventOrigin } from "../webhooks/events.js";
import { chargeCard } from "./payments.js";
import { startSubscription } from "./subscriptions.js";

export type CheckoutPayment =
  | { ok: true; session: Stripe.Checkout.Session }
  | Extract<CardCheck, { ok: false }>;

/** A session and the account it lives on, found by id alone (hosted pages and the control API). */
export function findCheckoutSession(
  emulator: Emulator,
  id: string,
): { account: Scope; session: Stripe.Checkout.Session } {
  const owned = emulator.store.state.checkoutSessions[id];
  if (!owned) throw resourceMissing("checkout.session", id);
  return { account: owned.account, session: owned.object };
}

/** What the hosted page does on "Pay": check the card, then charge it or start the subscription. */
export function payCheckoutSession(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  payment: CardInput & { email: string },
): CheckoutPayment {
  expireIfDue(emulator, account, session);
  if (session.status !== "open") {
    throw invalidRequest(`This Checkout Session is no longer active (status: ${session.status}).`);
  }
  const email = payment.email.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    return { ok: false, code: "email_invalid", message: "Your email address is invalid.", param: "email" };
  }
  const card = checkCard(payment, emulator.now());
  if (!card.ok) return card;
  const details = emulator.store.state.checkoutDetails[session.id];
  if (!details) throw resourceMissing("checkout.session", session.id);

  const customer = resolveCustomer(emulator, account, session, email);
  const saved: SavedCard = {
    id: newId("pm"),
    customer: customer?.id ?? "",
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
  };
  emulator.store.set("cards", saved.id, saved);
  session.customer_details = customerDetails(email);

  // The coupon as the session priced it; a redemption is counted on the coupon if it still exists.
  const coupon = details.coupon ?? null;
  if (session.mode === "subscription") {
    if (!customer) throw resourceMissing("customer", String(session.customer), "customer");
    const now = emulator.now();
    const trialEnd =
      details.trialEnd ?? (details.trialPeriodDays ? now + details.trialPeriodDays * 86_400 : null);
    const { subscription, invoice } = startSubscription(emulator, {
      account,
      customer,
      items: details.lineItems.flatMap((item) =>
        item.price ? [{ price: item.price, quantity: item.quantity ?? 1 }] : [],
      ),
      metadata: details.subscriptionMetadata,
      description: null,
      card: saved,
      trialEnd,
      coupon,
      checkoutSession: session.id,
      origin: AUTOMATIC,
    });
    session.subscription = subscription.id;
    session.invoice = invoice.id;
  } else if ((session.amount_total ?? 0) > 0) {
    const { paymentIntent } = chargeCard(
      emulator,
      account,
      {
        amount: session.amount_total ?? 0,
        currency: session.currency ?? "usd",
        customer: typeof session.customer === "string" ? session.customer : null,
        email,
        metadata: { ...details.paymentIntentMetadata },
        description: null,
        card: saved,
      },
      AUTOMATIC,
    );
    session.payment_intent = paymentIntent.id;
  }
  const liveCoupon = coupon ? emulator.store.find("coupons", account, coupon.id) : undefined;
  if (liveCoupon) redeemCoupon(emulator, account, liveCoupon);
  session.status = "complete";
  // A trial (or a discount that leaves nothing to pay) charges nothing now.
  session.payment_status = (session.amount_total ?? 0) > 0 ? "paid" : "no_payment_required";
  session.url = null;
  emulator.store.put("checkoutSessions", account, session);
  emulator.events.emit(account, { type: "checkout.session.completed", data: { object: session } }, AUTOMATIC);
  return { ok: true, session };
}

export function expireCheckoutSession(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  origin: EventOrigin,
): Stripe.Checkout.Session {
  if (session.status !== "open") {
    throw invalidRequest(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
    );
  }
  session.status = "expired";
  session.url = null;
  emulator.store.put("checkoutSessions", account, session);
  emulator.events.emit(account, { type: "checkout.session.expired", data: { object: session } }, origin);
  return session;
}

/** Sessions expire on their own at `expires_at`, whether or not anyone is looking. */
export function expireIfDue(emulator: Emulator, account: Scope, session: Stripe.Checkout.Session): void {
  if (session.status === "open" && session.expires_at <= emulator.now()) {
    expireCheckoutSession(emulator, account, session, AUTOMATIC);
  }
}

/** Subscription mode always has a customer; payment mode only keeps the one it was given. */
function resolveCustomer(
  emulator: Emulator,
  account: Scope,
  session: Stripe.Checkout.Session,
  email: string,
): Stripe.Customer | undefined {
  if (typeof session.customer === "string")
    return emulator.store.find("customers", account, session.customer);
  if (session.mode !== "subscription") return undefined;
  const customer = buildCustomer(newId("cus"), emulator.now(), {
    email,
    name: null,
    description: null,
    phone: null,
    metadata: {},
  });
  emulator.store.put("customers", account, customer);
  emulator.events.emit(account, { type: "customer.created", data: { object: customer } }, AUTOMATIC);
  session.customer = customer.id;
  return customer;
}
