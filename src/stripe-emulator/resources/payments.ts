import type Stripe from "stripe";
import { z } from "zod";
import { chargeDisputes } from "../actions/disputes.js";
import { recordBalanceMovement, settleLikeCharge } from "../actions/payments.js";
import type { ApiRoutes } from "../api.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, parameterMissing, StripeApiError } from "../errors.js";
import { newId } from "../ids.js";
import { paginate } from "../lists.js";
import { buildRefund } from "../objects/payment.js";
import { listParams, mergeMetadata, metadata, nonNegativeInteger, parseParams, text } from "../params.js";
import type { Scope } from "../state/types.js";
import type { EventOrigin } from "../webhooks/events.js";

const refundSchema = z.strictObject({
  charge: text().optional(),
  payment_intent: text().optional(),
  amount: nonNegativeInteger().optional(),
  reason: z.enum(["duplicate", "fraudulent", "requested_by_customer"]).optional(),
  metadata: metadata().optional(),
  refund_application_fee: z.string().optional(),
  reverse_transfer: z.string().optional(),
});

const listByPayment = z.strictObject({
  ...listParams,
  charge: text().optional(),
  payment_intent: text().optional(),
  customer: text().optional(),
});

export function registerPayments(routes: ApiRoutes, emulator: Emulator): void {
  const { store } = emulator;

  routes.get("/v1/payment_intents/:id", ({ account, id }) =>
    store.get("paymentIntents", account, id, "payment_intent"),
  );
  routes.get("/v1/payment_intents", ({ account, params }) => {
    const input = parseParams(listByPayment.omit({ charge: true, payment_intent: true }), params);
    const intents = store
      .list("paymentIntents", account)
      .filter((intent) => input.customer === undefined || intent.customer === input.customer);
    return paginate(intents, input, "/v1/payment_intents", "payment_intent");
  });

  routes.get("/v1/charges/:id", ({ account, id }) => store.get("charges", account, id, "charge"));
  routes.get("/v1/charges", ({ account, params }) => {
    const input = parseParams(listByPayment.omit({ charge: true }), params);
    const charges = store
      .list("charges", account)
      .filter(
        (charge) =>
          (input.customer === undefined || charge.customer === input.customer) &&
          (input.payment_intent === undefined || charge.payment_intent === input.payment_intent),
      );
    return paginate(charges, input, "/v1/charges", "charge");
  });

  routes.get("/v1/balance_transactions/:id", ({ account, id }) =>
    store.get("balanceTransactions", account, id, "balance transaction"),
  );

  routes.post("/v1/refunds", ({ account, params, origin }) =>
    createRefund(emulator, account, params, origin),
  );
  routes.get("/v1/refunds/:id", ({ account, id }) => store.get("refunds", account, id, "refund"));
  routes.get("/v1/refunds", ({ account, params }) => {
    const input = parseParams(listByPayment.omit({ customer: true }), params);
    const refunds = store
      .list("refunds", account)
      .filter(
        (refund) =>
          (input.charge === undefined || refund.charge === input.charge) &&
          (input.payment_intent === undefined || refund.payment_intent === input.payment_intent),
      );
    return paginate(refunds, input, "/v1/refunds", "refund");
  });
}

/** Full or partial refund of a card charge; it succeeds at once and sends `refund.created` and `charge.refunded`. */
function createRefund(
  emulator: Emulator,
  account: Scope,
  params: unknown,
  origin: EventOrigin,
): Stripe.Refund {
  const { store } = emulator;
  const input = parseParams(refundSchema, params);
  if (!input.charge && !input.payment_intent) throw parameterMissing("charge");
  let charge: Stripe.Charge;
  if (input.charge) {
    charge = store.get("charges", account, input.charge, "charge", "charge");
  } else {
    const intent = store.get(
      "paymentIntents",
      account,
      input.payment_intent ?? "",
      "payment_intent",
      "payment_intent",
    );
    if (typeof intent.latest_charge !== "string") {
      throw invalidRequest(
        "This PaymentIntent does not have a successful charge to refund.",
        "payment_intent",
      );
    }
    charge = store.get("charges", account, intent.latest_charge, "charge", "payment_intent");
  }
  // A chargeback has taken the money back already: Stripe refuses to refund it a second time.
  if (chargeDisputes(emulator, account, charge.id).some((dispute) => dispute.status !== "won")) {
    throw new StripeApiError(
      400,
      "invalid_request_error",
      `Charge ${charge.id} has been charged back.`,
      "charge_disputed",
    );
  }
  const remaining = charge.amount - charge.amount_refunded;
  if (remaining <= 0) {
    throw new StripeApiError(
      400,
      "invalid_request_error",
      `Charge ${charge.id} has already been refunded.`,
      "charge_already_refunded",
    );
  }
  const amount = input.amount ?? remaining;
  if (amount > remaining) {
    throw new StripeApiError(
      400,
      "invalid_request_error",
      `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`,
      "amount_too_large",
      "amount",
    );
  }
  if (amount === 0)
    throw invalidRequest("Refund amount must be greater than 0.", "amount", "parameter_invalid_integer");

  const refundId = newId("re");
  const balanceTransaction = recordBalanceMovement(emulator, account, {
    kind: "refund",
    source: refundId,
    amount,
    currency: charge.currency,
    description: "REFUND FOR CHARGE",
    settled: settleLikeCharge(emulator, account, charge, amount),
  });
  const refund = buildRefund(
    refundId,
    emulator.now(),
    { amount, charge, reason: input.reason ?? null, metadata: mergeMetadata({}, input.metadata) },
    balanceTransaction.id,
  );
  store.put("refunds", account, refund);
  const previous: Partial<Stripe.Charge> = {
    amount_refunded: charge.amount_refunded,
    refunded: charge.refunded,
  };
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  store.put("charges", account, charge);
  emulator.events.emit(account, { type: "refund.created", data: { object: refund } }, origin);
  emulator.events.emit(
    account,
    { type: "charge.refunded", data: { object: charge, previous_attributes: previous } },
    origin,
  );
  return refund;
}
