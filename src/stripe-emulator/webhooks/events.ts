import Stripe from "stripe";
import type { Clock } from "../clock.js";
import { newId } from "../ids.js";
import { snapshot } from "../state/snapshot.js";
import type { Store } from "../state/store.js";
import type { EventRecord, Scope, WebhookEndpointName } from "../state/types.js";

/** The events the emulator sends, each with its own `data` type from the SDK. */
export type EventPayload =
  | { type: "account.updated"; data: Stripe.AccountUpdatedEvent.Data }
  | { type: "checkout.session.completed"; data: Stripe.CheckoutSessionCompletedEvent.Data }
  | { type: "checkout.session.expired"; data: Stripe.CheckoutSessionExpiredEvent.Data }
  | { type: "charge.succeeded"; data: Stripe.ChargeSucceededEvent.Data }
  | { type: "customer.created"; data: Stripe.CustomerCreatedEvent.Data }
  | { type: "customer.subscription.created"; data: Stripe.CustomerSubscriptionCreatedEvent.Data }
  | { type: "customer.subscription.updated"; data: Stripe.CustomerSubscriptionUpdatedEvent.Data }
  | { type: "customer.subscription.deleted"; data: Stripe.CustomerSubscriptionDeletedEvent.Data }
  | {
      type: "customer.subscription.trial_will_end";
      data: Stripe.CustomerSubscriptionTrialWillEndEvent.Data;
    }
  | { type: "customer.updated"; data: Stripe.CustomerUpdatedEvent.Data }
  | { type: "invoiceitem.created"; data: Stripe.InvoiceItemCreatedEvent.Data }
  | { type: "invoice.created"; data: Stripe.InvoiceCreatedEvent.Data }
  | { type: "invoice.finalized"; data: Stripe.InvoiceFinalizedEvent.Data }
  | { type: "invoice.paid"; data: Stripe.InvoicePaidEvent.Data }
  | { type: "invoice.payment_succeeded"; data: Stripe.InvoicePaymentSucceededEvent.Data }
  | { type: "invoice.payment_failed"; data: Stripe.InvoicePaymentFailedEvent.Data }
  | { type: "payment_intent.created"; data: Stripe.PaymentIntentCreatedEvent.Data }
  | { type: "payment_intent.succeeded"; data: Stripe.PaymentIntentSucceededEvent.Data }
  | { type: "charge.refunded"; data: Stripe.ChargeRefundedEvent.Data }
  | { type: "charge.dispute.created"; data: Stripe.ChargeDisputeCreatedEvent.Data }
  | { type: "charge.dispute.funds_withdrawn"; data: Stripe.ChargeDisputeFundsWithdrawnEvent.Data }
  | { type: "charge.dispute.updated"; data: Stripe.ChargeDisputeUpdatedEvent.Data }
  | { type: "charge.dispute.funds_reinstated"; data: Stripe.ChargeDisputeFundsReinstatedEvent.Data }
  | { type: "charge.dispute.closed"; data: Stripe.ChargeDisputeClosedEvent.Data }
  | { type: "refund.created"; data: Stripe.RefundCreatedEvent.Data }
  | { type: "tax.settings.updated"; data: Stripe.TaxSettingsUpdatedEvent.Data };

/** The API request behind an event; `null` id for events with no request (hosted pages, renewals). */
export type EventOrigin = Stripe.Event.Request;

export const AUTOMATIC: EventOrigin = { id: null, idempotency_key: null };

export type EndpointConfigured = (endpoint: WebhookEndpointName) => boolean;

/**
 * Builds an event in Stripe's envelope, records it in the event log and hands it to `deliver`.
 * Objects are deep-copied so later changes do not rewrite what the event said.
 */
export class EventLog {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly hasEndpoint: (endpoint: WebhookEndpointName) => boolean,
    private readonly deliver: (record: EventRecord) => void,
  ) {}

  emit(account: Scope, payload: EventPayload, origin: EventOrigin): Stripe.Event {
    const endpoint: WebhookEndpointName = account ? "connect" : "platform";
    const configured = this.hasEndpoint(endpoint);
    const base: Omit<Stripe.EventBase, "type" | "data"> = {
      id: newId("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: this.clock.now(),
      livemode: false,
      pending_webhooks: configured ? 1 : 0,
      request: origin,
      ...(account ? { account } : {}),
    };
    const event: Stripe.Event = snapshot({ ...base, ...payload });
    const record: EventRecord = {
      event,
      endpoint,
      deliveries: [],
      status: configured ? "pending" : "skipped",
    };
    this.store.addEvent(record);
    if (configured) this.deliver(record);
    return event;
  }

  find(id: string): EventRecord | undefined {
    return this.store.state.events.find((record) => record.event.id === id);
  }

  /** Events of one account (platform or connected), newest first, as `GET /v1/events` lists them. */
  list(account: Scope): Stripe.Event[] {
    const events: Stripe.Event[] = [];
    for (const record of this.store.state.events) {
      if ((record.event.account ?? null) === account) events.push(record.event);
    }
    return events.reverse();
  }
}
