import type Stripe from "stripe";
import { newId } from "../ids.js";
import { buildPlatformAccount } from "../objects/account.js";

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
  disputes: Stripe.Dispute;
  subscriptions: Stripe.Subscription;
  invoices: Stripe.Invoice;
  balanceTransactions: Stripe.BalanceTransaction;
  portalSessions: Stripe.BillingPortal.Session;
  portalConfigurations: Stripe.BillingPortal.Configuration;
  coupons: Stripe.Coupon;
  discounts: Stripe.Discount;
  /** Pending invoice items (prorations) until an invoice picks them up. */
  invoiceItems: Stripe.InvoiceItem;
  invoicePayments: Stripe.InvoicePayment;
  /** Stripe Tax registrations (`taxreg_…`). */
  taxRegistrations: Stripe.Tax.Registration;
  /** Customers' tax ids (`txi_…`), listed on the customer as the expandable `tax_ids`. */
  taxIds: Stripe.TaxId;
  /** The tax rates Stripe Tax made for Checkout (`txr_…`), one per place, rate and behaviour. */
  taxRates: Stripe.TaxRate;
  /** File uploads (`file_…`, `POST /v1/files`); their bytes are in `fileContents`. */
  files: Stripe.File;
}

export type OwnedCollectionName = keyof OwnedObjects;

/** What Checkout keeps beside the session object: it only shows line items on request. */
export interface CheckoutSessionDetails {
  lineItems: Stripe.LineItem[];
  paymentIntentMetadata: Stripe.Metadata;
  subscriptionMetadata: Stripe.Metadata;
  /** `subscription_data[trial_period_days]` / `[trial_end]`, resolved to an end time when paid. */
  trialPeriodDays?: number | undefined;
  trialEnd?: number | undefined;
  /** The coupon of `discounts[0][coupon]` as the session priced it, redeemed when the session completes. */
  coupon?: Stripe.Coupon | undefined;
  /** `customer_update`: whether paying saves the typed address and name on the customer. */
  customerUpdate?:
    | { address?: "auto" | "never" | undefined; name?: "auto" | "never" | undefined }
    | undefined;
  /** Stripe Tax's result once computed: the session's breakdown and each line item's taxes. */
  tax?: CheckoutTaxRecord | undefined;
  /**
   * With `consent_collection[promotions]=auto`: the email typed on the page and whether the promotions
   * box was ticked, saved as the buyer fills the page (before paying), shown on the session if it expires.
   */
  promotionsConsent?: { email: string; optIn: boolean } | undefined;
}

export interface CheckoutTaxRecord {
  breakdown: Stripe.Checkout.Session.TotalDetails.Breakdown;
  /** By line item id. */
  lineTaxes: Record<string, Stripe.LineItem.Tax[]>;
}

/** What Stripe keeps about a subscription without showing it on the object. */
export interface SubscriptionRecord {
  /** How the next automatic charge goes (`/_emulator/subscriptions/:id/next_renewal`); default paid. */
  nextRenewal: "paid" | "failed";
  /** `customer.subscription.trial_will_end` was sent for the current `trial_end`. */
  trialWillEndSentFor: number | null;
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

/**
 * A webhook endpoint made through the API (`/v1/webhook_endpoints`). Stripe shows its secret only on
 * create and never shows `connect`, so both are kept beside the object.
 */
export interface WebhookEndpointRecord {
  endpoint: Stripe.WebhookEndpoint;
  secret: string;
  connect: boolean;
}

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

/** Records kept by id that belong to no account scope. */
export interface KeyedRecords {
  /** Connected accounts, owned by the platform. */
  accounts: Stripe.Account;
  accountLinks: AccountLinkRecord;
  checkoutDetails: CheckoutSessionDetails;
  cards: SavedCard;
  idempotency: IdempotencyRecord;
  webhookEndpoints: WebhookEndpointRecord;
  subscriptionRecords: SubscriptionRecord;
  /** The coupon of each discount as it was when redeemed: a deleted coupon's discounts keep applying. */
  redeemedCoupons: Stripe.Coupon;
  /** Stripe Tax settings, by account id (`platform` for the platform's own). */
  taxSettings: Stripe.Tax.Settings;
  /** A file upload's bytes, base64, by file id. */
  fileContents: string;
}

export type KeyedSectionName = keyof KeyedRecords;

export type KeyedState = { [K in KeyedSectionName]: Record<string, KeyedRecords[K]> };

/** Every section whose records are kept by id: what the journal writes one record at a time. */
export type RecordSections = { [K in OwnedCollectionName]: Owned<OwnedObjects[K]> } & KeyedRecords;
export type RecordSectionName = keyof RecordSections;

export interface EmulatorState extends OwnedState, KeyedState {
  version: 1;
  clockOffsetSeconds: number;
  /** The platform's own account (`GET /v1/account`), made once with the state. */
  platformAccount: Stripe.Account;
  events: EventRecord[];
}

export function emptyState(): EmulatorState {
  return {
    version: 1,
    clockOffsetSeconds: 0,
    platformAccount: buildPlatformAccount(newId("acct"), Math.floor(Date.now() / 1000)),
    accounts: {},
    accountLinks: {},
    checkoutDetails: {},
    cards: {},
    events: [],
    idempotency: {},
    webhookEndpoints: {},
    subscriptionRecords: {},
    redeemedCoupons: {},
    taxSettings: {},
    fileContents: {},
    customers: {},
    products: {},
    prices: {},
    checkoutSessions: {},
    paymentIntents: {},
    charges: {},
    refunds: {},
    disputes: {},
    subscriptions: {},
    invoices: {},
    balanceTransactions: {},
    portalSessions: {},
    portalConfigurations: {},
    coupons: {},
    discounts: {},
    invoiceItems: {},
    invoicePayments: {},
    taxRegistrations: {},
    taxIds: {},
    taxRates: {},
    files: {},
  };
}
