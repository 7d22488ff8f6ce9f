import type Stripe from "stripe";

/** `null` is the platform; otherwise the connected account (`acct_…`) an object lives on. */
export type Scope = string | null;

export interface Owned<T> {
  account: Scope;
  object: T;
}

/** Collections of Stripe objects that belong to one account (platform or connected). */
export interface OwnedObjects {
  customers: Stripe.Customer;
  products: Stripe.Product;
  prices: Stripe.Price;
  checkoutSessions: Stripe.Checkout.Session;
  paymentIntents: Stripe.PaymentIntent;
  charges: Stripe.Charge;
  refunds: Stripe.Refund;
  subscriptions: Stripe.Subscription;
  invoices: Stripe.Invoice;
  portalSessions: Stripe.BillingPortal.Session;
}

export type OwnedCollectionName = keyof OwnedObjects;

/** What Checkout keeps beside the session object: it only shows line items on request. */
export interface CheckoutSessionDetails {
  lineItems: Stripe.LineItem[];
  paymentIntentMetadata: Stripe.Metadata;
  subscriptionMetadata: Stripe.Metadata;
}

export interface AccountLinkRecord {
  token: string;
  account: string;
  refreshUrl: string;
  returnUrl: string;
  expiresAt: number;
  /** Stripe's links are single use: a second visit goes to `refresh_url`. */
  state: "new" | "opened" | "used";
}

/** A card saved on a customer (Checkout or the portal), for renewals and the portal's display. */
export interface SavedCard {
  id: string;
  customer: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type WebhookEndpointName = "platform" | "connect";

export interface DeliveryAttempt {
  /** Unix milliseconds. */
  at: number;
  url: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  trigger: "initial" | "retry" | "redeliver" | "batch";
}

export interface EventRecord {
  event: Stripe.Event;
  endpoint: WebhookEndpointName;
  deliveries: DeliveryAttempt[];
  /** `pending` until one attempt gets a 2xx, `failed` when retries ran out, `skipped` with no endpoint. */
  status: "pending" | "succeeded" | "failed" | "skipped";
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  createdAt: number;
}

export type OwnedState = { [K in OwnedCollectionName]: Record<string, Owned<OwnedObjects[K]>> };

export interface EmulatorState extends OwnedState {
  version: 1;
  clockOffsetSeconds: number;
  /** Connected accounts, owned by the platform. */
  accounts: Record<string, Stripe.Account>;
  accountLinks: Record<string, AccountLinkRecord>;
  checkoutDetails: Record<string, CheckoutSessionDetails>;
  cards: Record<string, SavedCard>;
  events: EventRecord[];
  idempotency: Record<string, IdempotencyRecord>;
}

export function emptyState(): EmulatorState {
  return {
    version: 1,
    clockOffsetSeconds: 0,
    accounts: {},
    accountLinks: {},
    checkoutDetails: {},
    cards: {},
    events: [],
    idempotency: {},
    customers: {},
    products: {},
    prices: {},
    checkoutSessions: {},
    paymentIntents: {},
    charges: {},
    refunds: {},
    subscriptions: {},
    invoices: {},
    portalSessions: {},
  };
}
