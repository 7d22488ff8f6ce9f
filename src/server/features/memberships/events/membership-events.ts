import type Stripe from "stripe";
import type { Database } from "../../../db/database";
import type { EventHandler } from "../../webhooks";
import {
  applySubscription,
  type MembershipDeps,
  recordMembershipPayment,
  revokeDisputedAccess,
  tellPaymentFailed,
} from "../membership-changes";
import { readPaidInvoice } from "../paid-invoice";
import type { SubscriptionRead } from "../sync-membership";

type HandlerDeps = MembershipDeps & { db: Database; now: () => Date };

/**
 * A subscription read back from Stripe on the event's account, with its customer's email. A signed
 * event is only a hint: what is stored is what Stripe answers now (sync-membership.ts keeps the newest).
 */
export async function readSubscription(
  deps: Pick<HandlerDeps, "stripe" | "now">,
  account: string,
  subscriptionId: string,
): Promise<SubscriptionRead> {
  const fetchedAt = deps.now();
  const subscription = await deps.stripe.subscriptions.retrieve(
    subscriptionId,
    { expand: ["customer"] },
    { stripeAccount: account },
  );
  const customer = subscription.customer;
  const email = typeof customer === "string" || customer.deleted ? "" : (customer.email ?? "");
  return { subscription, account, email, fetchedAt };
}

const subscriptionOfInvoice = (invoice: Stripe.Invoice) => {
  const id = invoice.parent?.subscription_details?.subscription;
  return typeof id === "string" ? id : id?.id;
};

/** `customer.subscription.*` on a connected account: the membership follows the subscription. */
function subscriptionHandler(deps: HandlerDeps): EventHandler {
  return async (event) => {
    const object = event.data.object as Stripe.Subscription;
    // Not one of ours (the seller's own subscriptions outside Flatfee): nothing to read back.
    if (!event.account || !object.metadata?.seller_id) return undefined;
    const read = await readSubscription(deps, event.account, object.id);
    return async (trx, announce, now) => {
      await applySubscription(deps, trx, read, now, announce);
    };
  };
}

/**
 * `invoice.paid` and `invoice.payment_failed` of a membership: the subscription read back with the
 * invoice; a paid one becomes the period's order (with its tax, paid-invoice.ts), a failed one tells the
 * member how to pay.
 */
function invoiceHandler(deps: HandlerDeps, outcome: "paid" | "failed"): EventHandler {
  return async (event) => {
    const subscriptionId = subscriptionOfInvoice(event.data.object as Stripe.Invoice);
    if (!event.account || !subscriptionId) return undefined;
    const { id } = event.data.object as Stripe.Invoice;
    // With its payments: a paid period's payment intent is what a refund of it names.
    const invoice = await deps.stripe.invoices.retrieve(
      id,
      { expand: ["payments"] },
      { stripeAccount: event.account },
    );
    const read = await readSubscription(deps, event.account, subscriptionId);
    if (!read.subscription.metadata?.seller_id) return undefined;
    // A paid period's tax rate and its first checkout's buyer and waiver, read before the transaction.
    const paid =
      outcome === "paid" ? await readPaidInvoice(deps, event.account, invoice, read.subscription) : undefined;
    return async (trx, announce, now) => {
      const membership = await applySubscription(deps, trx, read, now, announce);
      if (!membership) return;
      if (paid) await recordMembershipPayment(deps, trx, membership, paid, now, announce);
      else await tellPaymentFailed(deps, trx, membership, invoice, now);
    };
  };
}

/**
 * `charge.dispute.created` on a connected account: a member who disputes a payment of their membership
 * loses its access at once (product rules, Memberships), whatever Stripe does with the subscription.
 */
function disputeHandler(deps: HandlerDeps): EventHandler {
  return async (event) => {
    const { id } = event.data.object as Stripe.Dispute;
    if (!event.account) return undefined;
    const dispute = await deps.stripe.disputes.retrieve(id, {}, { stripeAccount: event.account });
    const intent =
      typeof dispute.payment_intent === "string" ? dispute.payment_intent : dispute.payment_intent?.id;
    if (!intent) return undefined;
    const account = event.account;
    return async (trx, announce, now) => {
      await revokeDisputedAccess(trx, account, intent, now, announce);
    };
  };
}

export function membershipEventHandlers(deps: HandlerDeps): Record<string, EventHandler> {
  const subscriptions = subscriptionHandler(deps);
  return {
    "customer.subscription.created": subscriptions,
    "customer.subscription.updated": subscriptions,
    "customer.subscription.deleted": subscriptions,
    "invoice.paid": invoiceHandler(deps, "paid"),
    "invoice.payment_failed": invoiceHandler(deps, "failed"),
    "charge.dispute.created": disputeHandler(deps),
  };
}
