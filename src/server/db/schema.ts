import type { ColumnType, Generated } from "kysely";
import type { Locale } from "../../contracts/i18n/locales";
import type { InvoiceKind, InvoiceLine, InvoiceParty } from "../../contracts/invoices";
import type { BillingAddress, TaxBehavior, TaxCategory, TaxIdCheck } from "../../contracts/tax";

/** Timestamps: read as Date, written as Date or ISO string, defaulted by the database. */
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb: read as the value, written as its JSON text (pg would turn a JS array into a Postgres array). */
type JsonColumn<T> = ColumnType<T | null, string | null | undefined, string | null>;

/** One size of a cover, as stored: its key in product-covers and its pixel size. */
export interface StoredCoverVariant {
  key: string;
  width: number;
  height: number;
}
/** One size of a product's cover, as shown: its public address and pixel size. */
export interface PublicCoverVariant {
  url: string;
  width: number;
  height: number;
}

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: CreatedAt;
  updatedAt: CreatedAt;
  twoFactorEnabled: boolean | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface ProfileTable {
  id: string;
  stripe_connect_account_id: string | null;
  stripe_connect_onboarding_complete: Generated<boolean>;
  store_name: string | null;
  store_tagline: string | null;
  store_description: string | null;
  profile_picture_url: string | null;
  stripe_customer_id: string | null;
  profile_picture_upload_id: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** The currency the store sells and counts in (docs/money.md), fixed from its first sale. */
  store_currency: Generated<string>;
  /** Stripe's Adaptive Pricing on the store's Checkout: buyers may pay in their own currency. */
  adaptive_pricing: Generated<boolean>;
  /** Recovery emails to buyers who left Checkout (docs/checkout-recovery.md); on unless turned off. */
  checkout_recovery_emails: Generated<boolean>;
  /** The store's new address after a move (docs/store-import.md): its pages here redirect there. */
  moved_to: Generated<string | null>;
}

/** A product's fixed price in a currency other than the store's (a pay-what-you-want product's minimum there). */
export interface ProductPriceTable {
  product_id: string;
  seller_id: string;
  currency: string;
  amount_cents: number;
}

export interface OutboxEmailTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  html: string;
  text: string;
  status: Generated<"pending" | "sent" | "failed">;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: NullableTimestamp;
  /** Extra headers (List-Unsubscribe...), as a JSON object. */
  headers: JsonColumn<Record<string, string>>;
}

export interface RateLimitHitTable {
  key: string;
  window_start: Timestamp;
  hits: number;
}

export interface SubscriptionTable {
  user_id: string;
  stripe_subscription_id: string;
  stripe_customer_id: string;
  status: string;
  current_period_end: NullableTimestamp;
  cancel_at_period_end: Generated<boolean>;
  past_due_since: NullableTimestamp;
  canceled_at: NullableTimestamp;
  updated_at: CreatedAt;
}

export interface StripeEventTable {
  id: string;
  type: string;
  account: string | null;
  received_at: CreatedAt;
}

export interface UploadTable {
  id: string;
  seller_id: string;
  purpose: "product-file" | "product-cover" | "profile-picture";
  /** pending: its link accepts bytes; checking: one completion is checking them; then completed, attached. */
  status: Generated<"pending" | "checking" | "completed" | "attached">;
  original_name: string;
  declared_size_bytes: number;
  declared_type: string;
  /** Where the browser PUTs the bytes, always in the private product-files bucket. */
  upload_key: string;
  /** Where the checked file lives once completed (covers and pictures are re-encoded into product-covers). */
  bucket: "product-files" | "product-covers" | null;
  storage_key: string | null;
  thumbnail_key: string | null;
  /** Covers and profile pictures: the uploaded image (in product-files) while it is checked and rendered. */
  source_key: string | null;
  /** Covers: the responsive sizes in product-covers (every planned one while checking, then those made). */
  cover_variants: JsonColumn<StoredCoverVariant[]>;
  size_bytes: number | null;
  content_type: string | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
  completed_at: NullableTimestamp;
}

/** Keys upload links were signed for, deleted once no PUT to them can still be running. */
export interface UploadKeySweepTable {
  upload_key: string;
  sweep_after: Timestamp;
}

export interface ProductTable {
  id: string;
  user_id: string;
  title: string;
  description: Generated<string>;
  /** A flexible price's minimum (may be 0); a fixed price of 0 is a free product. */
  price_cents: number;
  price_mode: Generated<"fixed" | "flexible">;
  /** What a flexible price's amount field is filled with; null when fixed. */
  suggested_price_cents: number | null;
  /** Every delivered order of this product gets a license key (license_keys). */
  issue_license_keys: Generated<boolean>;
  /** Each buyer's copy of the product's PDFs carries their email (pdf_stamps). */
  stamp_pdfs: Generated<boolean>;
  cover_upload_id: string | null;
  cover_image_url: string | null;
  cover_thumbnail_url: string | null;
  /** The cover's responsive sizes, smallest first; null for covers made before them. */
  cover_variants: JsonColumn<PublicCoverVariant[]>;
  inventory_type: "unlimited" | "limited";
  quantity_available: number | null;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** Sold once, or as a membership (membership_tiers); a membership's price_cents is its lowest monthly price. */
  kind: Generated<"one_time" | "membership">;
  /** What the product is for tax (contracts/tax.ts); null: decided from its files' types. */
  tax_category: Generated<TaxCategory | null>;
}

export type BillingInterval = "month" | "year";

export interface MembershipTierTable {
  id: string;
  product_id: string;
  seller_id: string;
  position: number;
  name: string;
  description: Generated<string>;
  monthly_price_cents: number;
  yearly_price_cents: number | null;
  trial_days: Generated<number>;
  /** Closed to new members; existing members keep it. */
  closed: Generated<boolean>;
  /** Removed from the product while members still had it: kept for them, offered to nobody. */
  removed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface MembershipTierFileTable {
  tier_id: string;
  product_file_id: string;
}

/** A tier's fixed price in a currency other than the store's: monthly, and yearly when the tier has one. */
export interface MembershipTierCurrencyPriceTable {
  tier_id: string;
  seller_id: string;
  currency: string;
  monthly_cents: number;
  yearly_cents: number | null;
}

/** A tier's Stripe price at one amount and interval on one connected account (prices are immutable). */
export interface MembershipTierPriceTable {
  tier_id: string;
  billing_interval: BillingInterval;
  amount_cents: number;
  stripe_account_id: string;
  /** The price's tax_behavior on Stripe ('unspecified': made while the store did not collect tax). */
  tax_behavior: Generated<TierPriceTaxBehavior>;
  /** Its product's Stripe tax code ('': none). */
  tax_code: Generated<string>;
  /** The currency it charges in: the store's, or one of the tier's fixed other prices. */
  currency: Generated<string>;
  stripe_price_id: string;
  created_at: CreatedAt;
}

export type TierPriceTaxBehavior = TaxBehavior | "unspecified";

/** A Stripe subscription as Stripe last reported it (synced_at: when that read was made). */
export interface MembershipTable {
  id: string;
  seller_id: string;
  product_id: string | null;
  product_title: string;
  tier_id: string | null;
  tier_name: string;
  stripe_account_id: string;
  stripe_subscription_id: string;
  stripe_customer_id: string;
  customer_email: string;
  billing_interval: BillingInterval;
  amount_cents: number;
  /** The currency the member pays in (the store's when they subscribed). */
  currency: Generated<string>;
  status: string;
  cancel_at_period_end: Generated<boolean>;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  trial_end: NullableTimestamp;
  past_due_since: NullableTimestamp;
  access_revoked_at: NullableTimestamp;
  post_emails: Generated<boolean>;
  /** The period end a yearly renewal's reminder was sent for (once per renewal). */
  renewal_reminder_sent_for: NullableTimestamp;
  started_at: Timestamp;
  canceled_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  synced_at: Timestamp;
  created_at: CreatedAt;
  /** The withdrawal waiver accepted on the membership's Checkout (its wording, when recorded); every period's order carries it. */
  withdrawal_waiver: Generated<string | null>;
  withdrawal_waiver_at: NullableTimestamp;
  /** The member's language (their first checkout's): every email about the membership speaks it. */
  buyer_locale: Generated<Locale>;
}

/** A creator's post to the members of some tiers of a membership product (body: the posts' markup). */
export interface MembershipPostTable {
  id: string;
  seller_id: string;
  product_id: string;
  title: string;
  body: string;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** Null while a draft. */
  published_at: NullableTimestamp;
  /** The publication's emails: queued in batches (email order after emails_last_email) until sent. */
  emails_status: "sending" | "sent" | null;
  emails_last_email: string | null;
  emails_count: Generated<number>;
}

export interface MembershipPostTierTable {
  post_id: string;
  tier_id: string;
}

/** A product file attached to a post. */
export interface MembershipPostFileTable {
  post_id: string;
  product_file_id: string;
  position: number;
}

export interface StoreViewTable {
  id: Generated<number>;
  store_owner_id: string;
  viewed_at: CreatedAt;
  user_agent: string | null;
  visitor_hash: string;
}

export interface CheckoutTable {
  /** Recorded with the held unit before Stripe is asked; the session id is attached when Stripe answers. */
  id: string;
  stripe_session_id: string | null;
  seller_id: string;
  stripe_account_id: string;
  product_id: string | null;
  reservation: "none" | "held" | "confirmed" | "released";
  state: Generated<"open" | "paid" | "expired">;
  /** Keyed hashes of the buyer's network, and of network and browser (never the IP itself). */
  network_hash: string | null;
  visitor_hash: string | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
  /** The discount code the server priced this checkout with (its use is held while the checkout is open). */
  discount_code_id: string | null;
  /** A code with a maximum of uses: its use is held until then, and the checkout ended after. */
  code_hold_ends_at: NullableTimestamp;
  discount_code: string | null;
  original_price_cents: number | null;
  discount_cents: Generated<number>;
  /** A checkout that starts a membership: its tier and interval. */
  membership_tier_id: Generated<string | null>;
  billing_interval: Generated<BillingInterval | null>;
  /** A business buyer's name and VAT/tax ID given before Checkout, and the number's check. */
  buyer_business_name: Generated<string | null>;
  buyer_tax_id: Generated<string | null>;
  buyer_tax_id_check: JsonColumn<TaxIdCheck>;
  /** The EU withdrawal waiver's wording (in the buyer's language), when Checkout asked the buyer to accept it. */
  withdrawal_waiver: Generated<string | null>;
  /** The language the buyer's request asked for (docs/i18n.md): Checkout's, then the order's emails'. */
  buyer_locale: Generated<Locale>;
  /** The currency Checkout was made in (the product's price there, or the store's). */
  currency: Generated<string>;
  /** Made from a recovery link: the expired checkout it recovers (docs/checkout-recovery.md). */
  recovered_from: Generated<string | null>;
}

/** An expired checkout whose buyer agreed to hear from the store: its one recovery email (docs/checkout-recovery.md). */
export interface CheckoutRecoveryTable {
  checkout_id: string;
  seller_id: string;
  product_id: string;
  /** Lower-cased. */
  email: string;
  buyer_locale: Locale;
  currency: string;
  /** What the buyer was about to pay, in `currency`'s minor unit (before tax). */
  amount_cents: number;
  expired_at: Timestamp;
  send_at: Timestamp;
  status: Generated<"scheduled" | "sent" | "skipped">;
  skip_reason: string | null;
  sent_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface OrderTable {
  id: string;
  stripe_session_id: string;
  stripe_account_id: string;
  payment_intent_id: string | null;
  seller_id: string;
  product_id: string | null;
  product_title: string;
  customer_email: string;
  /** What the buyer paid, in the currency they paid in (Stripe's presentment amount). */
  amount_cents: number;
  currency: Generated<string>;
  /** The same payment in the store currency, as Stripe settled it: what every total adds up (docs/money.md). */
  settlement_cents: number;
  settlement_currency: string;
  status: "completed" | "refunded";
  refunded_at: NullableTimestamp;
  downloads_used: Generated<number>;
  download_window_ends_at: Timestamp;
  created_at: CreatedAt;
  /** Snapshots of the checkout's discount: the code as the buyer used it and the amount saved. */
  discount_code_id: Generated<string | null>;
  discount_code: Generated<string | null>;
  discount_cents: Generated<number>;
  /** A membership's paid invoice (stripe_session_id is then the invoice id) and the period it paid for. */
  membership_id: Generated<string | null>;
  period_start: NullableTimestamp;
  period_end: NullableTimestamp;
  /** Stripe Tax's answer (docs/tax-and-invoices.md): the tax inside amount_cents, its rate as text, why. */
  tax_cents: Generated<number>;
  tax_behavior: Generated<TaxBehavior | null>;
  tax_rate: Generated<string | null>;
  tax_type: Generated<string | null>;
  tax_jurisdiction: Generated<string | null>;
  taxability_reason: Generated<string | null>;
  /** The buyer as the invoice names them: Checkout's billing details and a business buyer's. */
  buyer_name: Generated<string | null>;
  buyer_address: JsonColumn<BillingAddress>;
  buyer_country: Generated<string | null>;
  buyer_state: Generated<string | null>;
  buyer_business_name: Generated<string | null>;
  buyer_tax_id: Generated<string | null>;
  buyer_tax_id_check: JsonColumn<TaxIdCheck>;
  reverse_charge: Generated<boolean>;
  /** The withdrawal waiver the buyer accepted (its wording) and when. */
  withdrawal_waiver: Generated<string | null>;
  withdrawal_waiver_at: NullableTimestamp;
  /** The buyer's language, from the checkout: the order's emails speak it. */
  buyer_locale: Generated<Locale>;
  /** Its latest dispute (docs/disputes.md) and where it leaves the sale: open suspends access, lost keeps it off. */
  dispute_id: Generated<string | null>;
  dispute_status: Generated<"open" | "won" | "lost" | null>;
  /** An order made on another platform and brought here by an import (docs/store-import.md). */
  imported_from: Generated<string | null>;
}

/** A dispute of a one-time sale, as Stripe last answered it, with the creator's evidence draft (docs/disputes.md). */
export interface DisputeTable {
  /** Stripe's dispute id (dp_…). */
  id: string;
  seller_id: string;
  order_id: string;
  stripe_account_id: string;
  charge_id: string | null;
  amount_cents: number;
  currency: string;
  reason: string;
  /** Stripe's status: needs_response, under_review, won, lost (warning_* for inquiries). */
  status: string;
  due_by: NullableTimestamp;
  auto_submit: Generated<boolean>;
  /** The creator's edited evidence text fields; null until they save (then the page shows it, not the assembled). */
  evidence: JsonColumn<Record<string, string>>;
  /** The evidence PDF uploaded to Stripe (purpose dispute_evidence) with the submission. */
  evidence_file_id: string | null;
  submitted_at: NullableTimestamp;
  outcome: "won" | "lost" | null;
  closed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface StoreTaxSettingsTable {
  seller_id: string;
  collect_tax: Generated<boolean>;
  tax_behavior: Generated<TaxBehavior>;
  stripe_tax_status: "active" | "pending" | null;
  stripe_tax_missing_fields: JsonColumn<string[]>;
  head_office_country: string | null;
  stripe_tax_checked_at: NullableTimestamp;
  legal_name: string | null;
  legal_address: string | null;
  tax_id: string | null;
  invoice_prefix: Generated<string>;
  waiver_outside_eu: Generated<boolean>;
  updated_at: CreatedAt;
}

/** Each seller's last invoice and credit note number (docs/tax-and-invoices.md). */
export interface InvoiceSequenceTable {
  seller_id: string;
  kind: InvoiceKind;
  last_number: number;
}

/** bigint: pg answers a string, PGlite a number; read through Number(). */
type BigintCents = ColumnType<number | string, number | undefined, number>;

/** Which column of the tax report an order's net goes to (migration 0028). */
export type TaxReportKind = "taxable" | "reverse_charge" | "not_collected" | "other_zero";

/**
 * The tax report's and guide's roll-up (docs/tax-and-invoices.md): per seller, UTC day, buyer country,
 * US state (the US only), rate, kind and whether tax was charged ('' for none in the text keys), the
 * day's sales, which of them were refunded since, and the refunds made that day.
 */
export interface TaxReportDayTable {
  seller_id: string;
  day: ColumnType<Date, string, string>;
  country: string;
  state: string;
  tax_rate: string;
  kind: TaxReportKind;
  taxed: boolean;
  sales_count: Generated<number>;
  sales_net_cents: BigintCents;
  sales_tax_cents: BigintCents;
  refunded_sales_count: Generated<number>;
  refunded_sales_net_cents: BigintCents;
  refunded_sales_tax_cents: BigintCents;
  refunds_count: Generated<number>;
  refunds_net_cents: BigintCents;
  refunds_tax_cents: BigintCents;
}

/** An invoice or credit note: an immutable snapshot; a billing correction is the next version. */
export interface InvoiceTable {
  id: string;
  seller_id: string;
  order_id: string;
  kind: InvoiceKind;
  number: number;
  number_text: string;
  version: Generated<number>;
  issued_at: Timestamp;
  paid_at: Timestamp;
  created_at: CreatedAt;
  credited_invoice_id: string | null;
  seller: ColumnType<InvoiceParty, string, string>;
  buyer: ColumnType<InvoiceParty, string, string>;
  lines: ColumnType<InvoiceLine[], string, string>;
  currency: string;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  reverse_charge: Generated<boolean>;
  withdrawal_waiver: string | null;
  withdrawal_waiver_at: NullableTimestamp;
}

export interface DownloadLogTable {
  id: Generated<number>;
  order_id: string;
  user_agent: string | null;
  created_at: CreatedAt;
  /** When the storage link of this download served its one full download. */
  link_used_at: NullableTimestamp;
  /** The file (upload) downloaded; null for downloads before products had several files, or once it is gone. */
  upload_id: Generated<string | null>;
  /** The buyer's country as the proxy's header said it (two letters); null without the header, and before 0042. */
  country: Generated<string | null>;
}

export interface StoreViewDayTable {
  store_owner_id: string;
  day: ColumnType<Date, string, string>;
  views: number;
}

export interface SellerSalesTotalsTable {
  seller_id: string;
  orders_count: number;
  units_sold: number;
  revenue_cents: number;
}

export interface DiscountCodeTable {
  id: string;
  seller_id: string;
  /** Upper-case: codes are case-insensitive. */
  code: string;
  kind: "percent" | "amount";
  /** Percent off (1-100), or cents off. */
  value: number;
  all_products: Generated<boolean>;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  max_uses: number | null;
  /** Held by open checkouts. */
  uses_reserved: Generated<number>;
  /** Counted once each, when an order with the code is paid. */
  uses_used: Generated<number>;
  paused: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** On a membership: the first payment only, or every payment (a Stripe coupon's duration). */
  membership_duration: Generated<"once" | "forever">;
  /** An amount-off code's currency (its value is in that currency's minor unit); null for a percentage. */
  currency: Generated<string | null>;
}

/** The Stripe coupon of a code on one connected account, at one value and duration (coupons are immutable). */
export interface DiscountCodeCouponTable {
  discount_code_id: string;
  stripe_account_id: string;
  kind: "percent" | "amount";
  value: number;
  duration: "once" | "forever";
  stripe_coupon_id: string;
}

export interface DiscountCodeProductTable {
  discount_code_id: string;
  product_id: string;
}

/** A product's files (1 to 20), in the seller's order; each owns its checked upload. */
export interface ProductFileTable {
  id: string;
  product_id: string;
  upload_id: string;
  /** 0 is the first file (the one the product's fileName/fileSizeBytes describe). */
  position: number;
  /** The name buyers see (the seller may rename it). */
  display_name: string;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

/** Downloads an order made of one file (upload): at most 3 within the order's window. */
export interface OrderFileDownloadTable {
  order_id: string;
  upload_id: string;
  downloads_used: number;
}

/** One delivered order's license key, for a product that issues them. */
export interface LicenseKeyTable {
  order_id: string;
  seller_id: string;
  product_id: string;
  /** As shown: 4 groups of 8 upper-case Crockford base32 characters; an imported one as its platform wrote it. */
  key: string;
  disabled_at: NullableTimestamp;
  /** Verifications that counted. */
  uses: Generated<number>;
  last_verified_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** What a verification of an existing license key answered (docs/licenses.md). */
export type LicenseVerificationOutcome = "valid" | "disabled" | "refunded" | "disputed" | "dispute_lost";

/** One verification of an existing key (unknown keys are not logged): the dispute evidence's activity. */
export interface LicenseVerificationTable {
  id: Generated<number>;
  seller_id: string;
  /** The key's order (license_keys' primary key). */
  order_id: string;
  outcome: LicenseVerificationOutcome;
  increment_uses: boolean;
  /** The key's uses after this check. */
  uses: number;
  /** The caller's country from the proxy's header, when one is configured. */
  country: string | null;
  /** At most 400 characters. */
  user_agent: string | null;
  created_at: CreatedAt;
}

/** One buyer email of a seller, rolled up from their orders (OrderChanges). */
export interface CustomerTable {
  seller_id: string;
  /** Lower-case. */
  email: string;
  first_purchase_at: Timestamp;
  last_purchase_at: Timestamp;
  orders_count: number;
  completed_count: number;
  /** bigint: read as a string. */
  total_cents: ColumnType<string, number | string, number | string>;
  product_titles: ColumnType<string[], string[] | undefined, string[]>;
}

export interface CustomerCountTable {
  seller_id: string;
  customers: number;
}

/** A buyer of a product and how many of their orders of it are not refunded. */
export interface CustomerProductTable {
  product_id: string;
  email: string;
  seller_id: string;
  completed_count: number;
}

export interface EmailUnsubscribeTable {
  seller_id: string;
  email: string;
  created_at: CreatedAt;
}

/** A seller's email to their buyers, queued into the outbox in batches. */
export interface BroadcastTable {
  id: string;
  seller_id: string;
  kind: "message" | "product-update";
  audience: "all" | "product";
  product_id: string | null;
  product_title: string | null;
  subject: string;
  message: string;
  status: Generated<"sending" | "sent">;
  recipients_count: Generated<number>;
  /** The last recipient queued (emails are queued in email order). */
  last_email: string | null;
  created_at: CreatedAt;
  finished_at: NullableTimestamp;
}

/** A seller's key to the REST API: only its lookup id and SHA-256 are kept, never the key. */
export interface ApiKeyTable {
  id: string;
  seller_id: string;
  name: string;
  /** The random characters after `ff_live_` that start the key: unique, shown to recognise it. */
  lookup_id: string;
  /** SHA-256 of the whole key (PGlite reads bytea as a Uint8Array, pg as a Buffer). */
  secret_hash: Uint8Array;
  created_at: CreatedAt;
  /** Updated at most once a minute. */
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

/** One call made with an API key, shown to its seller (kept 30 days). */
export interface ApiRequestLogTable {
  id: Generated<number>;
  seller_id: string;
  api_key_id: string;
  method: string;
  path: string;
  status: number;
  created_at: CreatedAt;
}

export interface WebhookEndpointTable {
  id: string;
  seller_id: string;
  url: string;
  /** The event types this endpoint receives (contracts/webhooks.ts). */
  events: string[];
  /** whsec_ + base64 of the HMAC key (Standard Webhooks). */
  secret: string;
  created_at: CreatedAt;
}

export interface WebhookDeliveryTable {
  /** msg_…: the webhook-id header, the same on every attempt. */
  id: string;
  endpoint_id: string;
  seller_id: string;
  event_type: string;
  /** The exact JSON body that is signed and sent. */
  payload: string;
  status: ColumnType<
    "pending" | "succeeded" | "failed",
    "pending" | undefined,
    "pending" | "succeeded" | "failed"
  >;
  attempts: Generated<number>;
  round_attempts: Generated<number>;
  round_started_at: Timestamp;
  next_attempt_at: Timestamp;
  last_attempt_at: NullableTimestamp;
  last_response_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
}

/** Analytics roll-ups (migration 0016): per seller, UTC day and product; '' for an absent source field. */
export interface AnalyticsProductDayTable {
  seller_id: string;
  day: ColumnType<Date, string, string>;
  product_id: string;
  views: Generated<number>;
  units: Generated<number>;
  revenue_cents: Generated<number>;
  /** Of those, sales made through a recovery link (docs/checkout-recovery.md). */
  recovered_units: Generated<number>;
  recovered_cents: Generated<number>;
}

export interface AnalyticsSourceDayTable extends AnalyticsProductDayTable {
  referrer_host: Generated<string>;
  utm_source: Generated<string>;
  utm_medium: Generated<string>;
  utm_campaign: Generated<string>;
}

export interface ProductViewVisitTable {
  product_id: string;
  visitor_hash: string;
  last_viewed_at: Timestamp;
}

export interface CheckoutSourceTable {
  checkout_id: string;
  referrer_host: Generated<string>;
  utm_source: Generated<string>;
  utm_medium: Generated<string>;
  utm_campaign: Generated<string>;
}

export interface OrderAttributionTable {
  order_id: string;
  seller_id: string;
  product_id: string;
  day: ColumnType<Date, string, string>;
  referrer_host: Generated<string>;
  utm_source: Generated<string>;
  utm_medium: Generated<string>;
  utm_campaign: Generated<string>;
  /** Counted as recovered revenue too (its checkout came from a recovery link). */
  recovered: Generated<boolean>;
}

/** One buyer's stamped copy of one PDF (order, upload): queued at the sale, made in the background. */
export interface PdfStampTable {
  id: Generated<number>;
  order_id: string;
  upload_id: string;
  seller_id: string;
  status: Generated<"pending" | "stamped" | "failed">;
  /** In product-files; recorded when claimed, before anything is written under it. */
  stamped_key: string | null;
  stamped_size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  pages: number | null;
  /** Why it failed, as contracts/pdf-stamps.ts names it (shown to the seller). */
  failure: string | null;
  last_error: string | null;
  created_at: CreatedAt;
  finished_at: NullableTimestamp;
}

/** One job of the background queue (jobs/job-queue.ts); gone once done, kept when it failed. */
export interface JobTable {
  id: Generated<number>;
  name: string;
  /** JSON of the job's payload. */
  payload: ColumnType<unknown, string, string>;
  status: Generated<"pending" | "failed">;
  /** When it may run next; while it runs, when its lease ends. */
  run_at: CreatedAt;
  attempts: Generated<number>;
  lease: string | null;
  unique_key: string | null;
  group_key: string | null;
  last_error: string | null;
  created_at: CreatedAt;
  failed_at: NullableTimestamp;
}

/** Who may use the operator console (migration 0032; granted only from the command line). */
export interface OperatorTable {
  user_id: string;
  granted_at: CreatedAt;
  granted_by: string;
}

/** Every operator action with its reason; append-only (a trigger refuses updates and deletes). */
export interface AuditLogTable {
  id: Generated<number>;
  actor_id: string | null;
  actor_email: string;
  action: string;
  seller_id: string | null;
  product_id: string | null;
  report_id: string | null;
  reason: string;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: CreatedAt;
}

/** A report about a product or a store (migration 0037, docs/operator.md "Reports"). */
export interface ReportTable {
  id: string;
  seller_id: string;
  /** Null for a store's report, or once the product is deleted. */
  product_id: string | null;
  /** The product's title when it was reported. */
  product_title: string | null;
  reason: "copyright" | "malware" | "illegal" | "scam" | "other";
  details: Generated<string>;
  reporter_email: string;
  reporter_locale: Generated<Locale>;
  /** A copyright report's notice (contracts/reports.ts DmcaNotice). */
  dmca: JsonColumn<Record<string, unknown>>;
  status: Generated<"new" | "in_review" | "actioned" | "dismissed">;
  status_reason: string | null;
  seller_answer: string | null;
  /** The seller's counter-notice to a copyright report (contracts/reports.ts CounterNotice). */
  counter_notice: JsonColumn<Record<string, unknown>>;
  answered_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** When the seller was emailed about it (migration 0044): at most one such email per seller an hour. */
  seller_notified_at: NullableTimestamp;
  /** Its email to the seller was held back by the hour's cap. */
  seller_notice_skipped: Generated<boolean>;
  /** When the seller's counter-notice was forwarded to the claimant. */
  counter_notice_forwarded_at: NullableTimestamp;
  /** 10 business days after the counter-notice: from then the operator may restore what was taken down. */
  restore_after: NullableTimestamp;
}

/** What operators did about a seller or one of their products (docs/operator.md, "Enforcement"). */
export interface EnforcementActionTable {
  id: string;
  seller_id: string;
  /** The product taken down; null for the seller's own actions. */
  product_id: string | null;
  kind: "warn" | "restrict" | "suspend" | "take-down";
  reason: string;
  report_id: string | null;
  /** A suspension that also stopped buyers' downloads. */
  revoke_downloads: Generated<boolean>;
  actor_email: string;
  created_at: CreatedAt;
  /** When it stopped being in force (reinstated, or replaced by another); null while in force. */
  lifted_at: NullableTimestamp;
  lifted_reason: string | null;
}

/** A seller's appeal of one action; at most one open per action. */
export interface EnforcementAppealTable {
  id: string;
  action_id: string;
  seller_id: string;
  body: string;
  status: Generated<"open" | "reinstated" | "upheld" | "closed">;
  created_at: CreatedAt;
  answered_at: NullableTimestamp;
  answer_reason: string | null;
  answered_by: string | null;
}

export type StoreImportStatus = "collecting" | "checking" | "checked" | "importing" | "imported" | "failed";

/** A creator's import of another platform's (or Flatfee instance's) store (docs/store-import.md). */
export interface StoreImportTable {
  id: string;
  seller_id: string;
  platform: string;
  status: Generated<StoreImportStatus>;
  notify_buyers: Generated<boolean>;
  /** The dry run's report (store-import/dry-run.ts). */
  report: JsonColumn<unknown>;
  /** What the run created and skipped. */
  result: JsonColumn<unknown>;
  progress_done: Generated<number>;
  progress_total: Generated<number>;
  /** Where the run's last committed batch ended: { file, item }. */
  cursor: JsonColumn<unknown>;
  error: string | null;
  created_at: CreatedAt;
  checked_at: NullableTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface StoreImportFileTable {
  id: string;
  import_id: string;
  seller_id: string;
  position: number;
  file_name: string;
  /** The platform reader that recognised it (its label). */
  reader: string;
  size_bytes: ColumnType<number | string, number, number>;
  storage_key: string;
  created_at: CreatedAt;
}

export interface StoreImportProductFileTable {
  import_id: string;
  product_external_id: string;
  upload_id: string;
  position: number;
}

export interface ImportLinkTable {
  seller_id: string;
  platform: string;
  kind:
    | "product"
    | "order"
    | "customer"
    | "subscription"
    | "discount_code"
    | "membership"
    | "post"
    | "webhook"
    | "invoice";
  external_id: string;
  local_id: string;
  import_id: string | null;
  created_at: CreatedAt;
}

export interface StoreImportResubscribeTable {
  seller_id: string;
  platform: string;
  external_id: string;
  import_id: string | null;
  email: string;
  product_title: string;
  status: string;
  amount_cents: number;
  currency: string;
  billing_interval: BillingInterval;
  current_period_end: NullableTimestamp;
  created_at: CreatedAt;
}

/** bigint byte counts: pg answers a string, PGlite a number; read through Number(). */
type BigintBytes = ColumnType<number | string, number | undefined, number>;

/** A creator's export of their store (migration 0039, docs/export-format.md), built by a job. */
export interface StoreExportTable {
  id: string;
  seller_id: string;
  /** At most one queued or building per seller (a partial unique index). */
  status: Generated<"queued" | "building" | "ready" | "failed" | "expired">;
  /** Stored files copied into the archive so far, of all of them. */
  bytes_done: BigintBytes;
  bytes_total: BigintBytes;
  /** NDJSON records written so far. */
  records_done: Generated<number>;
  size_bytes: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** In the store-exports bucket while ready. */
  storage_key: string | null;
  /** Why it failed, in words for the creator. */
  error: string | null;
  created_at: CreatedAt;
  ready_at: NullableTimestamp;
  expires_at: NullableTimestamp;
}

export interface DB {
  jobs: JobTable;
  user: UserTable;
  session: SessionTable;
  profiles: ProfileTable;
  outbox_emails: OutboxEmailTable;
  rate_limit_hits: RateLimitHitTable;
  subscriptions: SubscriptionTable;
  stripe_events: StripeEventTable;
  products: ProductTable;
  membership_tiers: MembershipTierTable;
  membership_tier_files: MembershipTierFileTable;
  membership_tier_prices: MembershipTierPriceTable;
  membership_tier_currency_prices: MembershipTierCurrencyPriceTable;
  memberships: MembershipTable;
  membership_posts: MembershipPostTable;
  membership_post_tiers: MembershipPostTierTable;
  membership_post_files: MembershipPostFileTable;
  store_views: StoreViewTable;
  checkouts: CheckoutTable;
  checkout_recoveries: CheckoutRecoveryTable;
  orders: OrderTable;
  disputes: DisputeTable;
  download_logs: DownloadLogTable;
  store_view_days: StoreViewDayTable;
  seller_sales_totals: SellerSalesTotalsTable;
  uploads: UploadTable;
  upload_key_sweeps: UploadKeySweepTable;
  discount_codes: DiscountCodeTable;
  product_prices: ProductPriceTable;
  discount_code_coupons: DiscountCodeCouponTable;
  discount_code_products: DiscountCodeProductTable;
  analytics_product_days: AnalyticsProductDayTable;
  analytics_source_days: AnalyticsSourceDayTable;
  product_view_visits: ProductViewVisitTable;
  checkout_sources: CheckoutSourceTable;
  order_attributions: OrderAttributionTable;
  product_files: ProductFileTable;
  order_file_downloads: OrderFileDownloadTable;
  license_keys: LicenseKeyTable;
  license_verifications: LicenseVerificationTable;
  api_keys: ApiKeyTable;
  api_request_logs: ApiRequestLogTable;
  customers: CustomerTable;
  customer_counts: CustomerCountTable;
  customer_products: CustomerProductTable;
  email_unsubscribes: EmailUnsubscribeTable;
  broadcasts: BroadcastTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  pdf_stamps: PdfStampTable;
  store_tax_settings: StoreTaxSettingsTable;
  invoice_sequences: InvoiceSequenceTable;
  invoices: InvoiceTable;
  tax_report_days: TaxReportDayTable;
  operators: OperatorTable;
  audit_log: AuditLogTable;
  reports: ReportTable;
  enforcement_actions: EnforcementActionTable;
  enforcement_appeals: EnforcementAppealTable;
  store_imports: StoreImportTable;
  store_import_files: StoreImportFileTable;
  store_import_product_files: StoreImportProductFileTable;
  import_links: ImportLinkTable;
  store_import_resubscribes: StoreImportResubscribeTable;
  store_exports: StoreExportTable;
}
