import type Stripe from "stripe";
import { proportion } from "../currencies.js";
import type { SavedCard } from "../state/types.js";

export interface PaymentFields {
  amount: number;
  currency: string;
  customer: string | null;
  email: string | null;
  metadata: Stripe.Metadata;
  description: string | null;
  card: SavedCard;
  /** The billing address and name Checkout collected, if it did. */
  billingAddress?: Stripe.Address | null;
  billingName?: string | null;
  /**
   * Adaptive Pricing: what the card was charged in the buyer's currency. `amount` and `currency` stay
   * the integration's; the PaymentIntent and the charge carry this as `presentment_details`.
   */
  presentment?: PresentmentDetails | undefined;
}

export type PresentmentDetails = Stripe.PaymentIntent.PresentmentDetails;

/** A PaymentIntent as Checkout creates it, before the card is charged (`payment_intent.created`). */
export function buildPaymentIntent(
  id: string,
  created: number,
  fields: Omit<PaymentFields, "card" | "email">,
): Stripe.PaymentIntent {
  return {
    id,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: fields.amount,
    amount_capturable: 0,
    amount_details: {},
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: `${id}_secret_${id.slice(3, 21)}`,
    confirmation_method: "automatic",
    created,
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    description: fields.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" },
    },
    payment_method_types: ["card"],
    payment_record: null,
    ...(fields.presentment ? { presentment_details: { ...fields.presentment } } : {}),
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "requires_payment_method",
    transfer_data: null,
    transfer_group: null,
  };
}

/** The card was charged: cards capture at once, so the intent has succeeded. */
export function markPaymentIntentSucceeded(intent: Stripe.PaymentIntent, charge: Stripe.Charge): void {
  intent.status = "succeeded";
  intent.amount_received = charge.amount;
  intent.latest_charge = charge.id;
  intent.payment_method = typeof charge.payment_method === "string" ? charge.payment_method : null;
}

export interface ChargeLinks {
  paymentIntent: string;
  balanceTransaction: string;
  receiptUrl: string;
}

export function buildCharge(
  id: string,
  created: number,
  fields: PaymentFields,
  links: ChargeLinks,
): Stripe.Charge {
  return {
    id,
    object: "charge",
    amount: fields.amount,
    amount_captured: fields.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: links.balanceTransaction,
    billing_details: {
      address: fields.billingAddress ?? null,
      email: fields.email,
      name: fields.billingName ?? null,
      phone: null,
      tax_id: null,
    },
    calculated_statement_descriptor: "FLATFEE",
    captured: true,
    created,
    currency: fields.currency,
    customer: fields.customer,
    description: fields.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: fields.metadata,
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: "approved_by_network",
      reason: null,
      risk_level: "normal",
      risk_score: 20,
      seller_message: "Payment complete.",
      type: "authorized",
    },
    paid: true,
    payment_intent: links.paymentIntent,
    payment_method: fields.card.id,
    ...(fields.presentment ? { presentment_details: { ...fields.presentment } } : {}),
    payment_method_details: {
      type: "card",
      card: {
        amount_authorized: fields.amount,
        authorization_code: null,
        brand: fields.card.brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
        country: "US",
        electronic_commerce_indicator: null,
        exp_month: fields.card.expMonth,
        exp_year: fields.card.expYear,
        extended_authorization: { status: "disabled" },
        fingerprint: null,
        funding: "credit",
        incremental_authorization: { status: "unavailable" },
        installments: null,
        last4: fields.card.last4,
        mandate: null,
        multicapture: { status: "unavailable" },
        network: fields.card.brand,
        network_token: { used: false },
        network_transaction_id: null,
        overcapture: { maximum_amount_capturable: fields.amount, status: "unavailable" },
        regulated_status: "unregulated",
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
    },
    receipt_email: null,
    receipt_number: null,
    receipt_url: links.receiptUrl,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "succeeded",
    transfer_data: null,
    transfer_group: null,
  };
}

export interface RefundFields {
  amount: number;
  charge: Stripe.Charge;
  reason: Stripe.Refund.Reason | null;
  metadata: Stripe.Metadata;
}

export function buildRefund(
  id: string,
  created: number,
  fields: RefundFields,
  balanceTransaction: string,
): Stripe.Refund {
  return {
    id,
    object: "refund",
    amount: fields.amount,
    balance_transaction: balanceTransaction,
    charge: fields.charge.id,
    created,
    currency: fields.charge.currency,
    customer: fields.charge.customer,
    customer_account: null,
    destination_details: {
      type: "card",
      card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
    },
    metadata: fields.metadata,
    payment_intent: fields.charge.payment_intent,
    payment_method: fields.charge.payment_method,
    ...refundPresentment(fields),
    reason: fields.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: null,
  };
}

/** A refund of a charge paid in the buyer's currency gives back its share of what the card was charged. */
function refundPresentment(fields: RefundFields): Pick<Stripe.Refund, "presentment_details"> {
  const charged = fields.charge.presentment_details;
  if (!charged) return {};
  return {
    presentment_details: {
      presentment_amount: proportion(fields.amount, charged.presentment_amount, fields.charge.amount),
      presentment_currency: charged.presentment_currency,
    },
  };
}

/**
 * Stripe's US card pricing: 2.9% + 30¢ per successful charge (2.9% rounded half up, in integers), taken
 * in the currency the charge settles in (30 of its minor units); refunds give no fee back.
 */
function cardFee(amount: number): number {
  return Math.floor((amount * 29 + 500) / 1000) + 30;
}

/** Funds from a card charge become available two days later (the payout schedule's `delay_days`). */
const AVAILABLE_AFTER_SECONDS = 2 * 86_400;

/** The dispute fee Stripe takes from the balance when a US card payment is disputed: $15.00. */
export const DISPUTE_FEE = 1500;

export interface BalanceMovement {
  /**
   * `charge` and `refund` move a payment's money; `dispute` is a chargeback's withdrawal (the disputed
   * amount and the dispute fee), `dispute_reversal` gives the disputed amount back when it is won.
   */
  kind: "charge" | "refund" | "dispute" | "dispute_reversal";
  /** The charge, refund or dispute id. */
  source: string;
  /** Positive; a refund's or a dispute's transaction takes it out of the balance. */
  amount: number;
  currency: string;
  description: string | null;
  /**
   * What the movement is worth in the account's settlement currency (its `default_currency`) when that
   * is another currency; the transaction is then booked in it. Absent: booked as it is.
   */
  settled?: Settlement | undefined;
}

/** A movement converted to the account's settlement currency. */
export interface Settlement {
  /** Positive, in the minor unit of `currency`. */
  amount: number;
  currency: string;
  /** The movement's amount in whole units times this is `amount` in whole units (Stripe's `exchange_rate`). */
  exchangeRate: number;
}

function movementFee(
  movement: BalanceMovement,
  amount: number,
  currency: string,
): Stripe.BalanceTransaction.FeeDetail[] {
  const detail = (fee: number, description: string): Stripe.BalanceTransaction.FeeDetail => ({
    amount: fee,
    application: null,
    currency,
    description,
    type: "stripe_fee",
  });
  if (movement.kind === "charge") return [detail(cardFee(amount), "Stripe processing fees")];
  if (movement.kind === "dispute") return [detail(DISPUTE_FEE, "Dispute fee")];
  return [];
}

/**
 * What a charge adds to the account's balance, or a refund or a dispute takes from it. Disputes are
 * `adjustment`s, reported as `dispute` (the withdrawal) and `dispute_reversal` (a won dispute's money
 * back), as Stripe books them. A movement in another currency than the account's is booked converted
 * (`settled`): `amount`, `fee`, `net` and `currency` in the settlement currency, the fee worked out on
 * the converted amount, and `exchange_rate` the rate used; otherwise `exchange_rate` is `null`.
 */
export function buildBalanceTransaction(
  id: string,
  created: number,
  movement: BalanceMovement,
): Stripe.BalanceTransaction {
  const settled = movement.settled;
  const currency = settled?.currency ?? movement.currency;
  const magnitude = settled?.amount ?? movement.amount;
  const feeDetails = movementFee(movement, magnitude, currency);
  const fee = feeDetails.reduce((sum, detail) => sum + detail.amount, 0);
  const outgoing = movement.kind === "refund" || movement.kind === "dispute";
  const amount = outgoing ? -magnitude : magnitude;
  const isDispute = movement.kind === "dispute" || movement.kind === "dispute_reversal";
  return {
    id,
    object: "balance_transaction",
    amount,
    available_on: created + AVAILABLE_AFTER_SECONDS,
    balance_type: "payments",
    created,
    currency,
    description: movement.description,
    exchange_rate: settled?.exchangeRate ?? null,
    fee,
    fee_details: feeDetails,
    net: amount - fee,
    reporting_category: movement.kind,
    source: movement.source,
    status: "pending",
    type: isDispute ? "adjustment" : movement.kind,
  };
}
