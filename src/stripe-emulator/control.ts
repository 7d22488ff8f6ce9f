import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  expireCheckoutSession,
  expireIfDue,
  findCheckoutSession,
  payCheckoutSession,
  saveBuyerConsent,
} from "./actions/checkout.js";
import { findCharge, findDispute, openDispute, resolveDispute } from "./actions/disputes.js";
import { findInvoice, payInvoiceWithCard } from "./actions/invoice-recovery.js";
import { finishOnboarding } from "./actions/onboarding.js";
import { saveSubscriptionRecord, subscriptionRecord } from "./actions/subscription-records.js";
import { renewSubscription } from "./actions/subscriptions.js";
import { createRegistration, updateTaxSettings } from "./actions/tax.js";
import { sendApiError } from "./api.js";
import type { Emulator } from "./emulator.js";
import { resourceMissing, StripeApiError } from "./errors.js";
import { DISPUTE_REASONS } from "./objects/dispute.js";
import type { DeliveryAttempt } from "./state/types.js";
import { AUTOMATIC } from "./webhooks/events.js";

const endpointSchema = z.object({ url: z.string().url(), secret: z.string().min(1) });

const addressSchema = z.strictObject({
  country: z.string().optional(),
  state: z.string().optional(),
  line1: z.string().optional(),
  line2: z.string().optional(),
  city: z.string().optional(),
  postal_code: z.string().optional(),
});

const schemas = {
  advance: z.object({ seconds: z.number().int().min(0) }),
  complete: z.object({
    card: z.string().default("4242424242424242"),
    email: z.string().optional(),
    expiry: z.string().default("12/34"),
    cvc: z.string().default("123"),
    name: z.string().optional(),
    address: addressSchema.optional(),
    business_name: z.string().optional(),
    tax_id: z.string().optional(),
    terms_of_service: z.boolean().optional(),
    /** The promotions box (`consent_collection[promotions]=auto`); unticked unless `true`. */
    promotions: z.boolean().optional(),
    /** Adaptive Pricing: the currency the buyer pays in (the session's or the local one offered). */
    currency: z.string().optional(),
    /** The buyer's languages, as the hosted page reads them; default: this request's `Accept-Language`. */
    accept_language: z.string().optional(),
  }),
  consent: z.object({ email: z.string(), promotions: z.boolean() }),
  headOffice: addressSchema.extend({ country: z.string() }),
  registration: z.strictObject({
    country: z.string(),
    type: z.string(),
    state: z.string().optional(),
    active_from: z.union([z.literal("now"), z.number().int()]).default("now"),
    expires_at: z.number().int().optional(),
  }),
  renew: z.object({ outcome: z.enum(["paid", "failed"]).default("paid"), final: z.boolean().default(false) }),
  nextRenewal: z.object({ outcome: z.enum(["paid", "failed"]) }),
  payInvoice: z.object({
    card: z.string().default("4242424242424242"),
    expiry: z.string().default("12/34"),
    cvc: z.string().default("123"),
  }),
  dispute: z.strictObject({
    reason: z.enum(DISPUTE_REASONS).default("fraudulent"),
    amount: z.number().int().min(1).optional(),
  }),
  resolveDispute: z.strictObject({ outcome: z.enum(["won", "lost"]) }),
  deliver: z.object({
    event_ids: z.array(z.string()).min(1),
    times: z.number().int().min(1).max(10).default(1),
  }),
  webhooks: z.object({ platform: endpointSchema.optional(), connect: endpointSchema.optional() }),
  eventsQuery: z.object({ type: z.string().optional(), account: z.string().optional() }),
};

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new StripeApiError(
    400,
    "invalid_request_error",
    `${issue?.path.join(".") || "body"}: ${issue?.message}`,
  );
}

/**
 * `/_emulator/...`: JSON endpoints, without authentication, to drive the emulator from tests or by hand
 * (pay a session without a browser, move time, renew subscriptions, inspect and replay webhooks).
 */
export function registerControlApi(app: FastifyInstance, emulator: Emulator): void {
  const { store } = emulator;
  const route = (
    method: "GET" | "POST",
    url: string,
    handler: (
      params: Record<string, string>,
      body: unknown,
      query: unknown,
      reply: FastifyReply,
      request: FastifyRequest,
    ) => unknown,
  ) => {
    app.route({
      method,
      url: `/_emulator${url}`,
      handler: async (request, reply) => {
        try {
          const params = z.record(z.string(), z.string()).parse(request.params ?? {});
          return await handler(params, request.body, request.query, reply, request);
        } catch (error) {
          return sendApiError(reply, error);
        }
      },
    });
  };
  const subscriptionById = (id: string) => {
    const owned = store.state.subscriptions[id];
    if (!owned) throw resourceMissing("subscription", id);
    return owned;
  };
  const connectedAccountId = (id: string | undefined) => {
    if (!id || !store.state.accounts[id]) throw resourceMissing("account", id ?? "");
    return id;
  };
  const eventById = (id: string) => {
    const record = emulator.events.find(id);
    if (!record) throw resourceMissing("event", id);
    return record;
  };

  route("GET", "/health", () => ({ ok: true, now: emulator.now() }));

  route("POST", "/reset", () => {
    store.reset();
    return { ok: true };
  });

  route("GET", "/clock", () => ({ now: emulator.now(), offset_seconds: store.state.clockOffsetSeconds }));

  route("POST", "/clock/advance", (_params, body) => {
    const { seconds } = parseBody(schemas.advance, body);
    emulator.clock.advance(seconds);
    emulator.runDueWork();
    return { now: emulator.now(), offset_seconds: store.state.clockOffsetSeconds };
  });

  route("POST", "/webhooks", (_params, body) => {
    const endpoints = parseBody(schemas.webhooks, body);
    emulator.webhooks.configure(endpoints);
    return { ok: true };
  });

  route("POST", "/checkout/sessions/:id/complete", (params, body, _query, reply, request) => {
    const input = parseBody(schemas.complete, body);
    const { account, session } = findCheckoutSession(emulator, params.id ?? "");
    const customer =
      typeof session.customer === "string" ? store.find("customers", account, session.customer) : undefined;
    const customerEmail = customer?.email;
    const customerName = customer?.name;
    const result = payCheckoutSession(emulator, account, session, {
      email: input.email ?? session.customer_email ?? customerEmail ?? "buyer@example.com",
      number: input.card,
      expiry: input.expiry,
      cvc: input.cvc,
      // Stripe's usual test cardholder when the caller names nobody and the customer has no name.
      name: input.name ?? (customerName || "Jenny Rosen"),
      address: input.address,
      business: input.business_name !== undefined || input.tax_id !== undefined,
      businessName: input.business_name,
      taxId: input.tax_id,
      // A test driving the page ticks the box unless it says otherwise (a buyer who pays must).
      termsAccepted: input.terms_of_service ?? true,
      promotions: input.promotions,
      acceptLanguage: input.accept_language ?? request.headers["accept-language"],
      currency: input.currency,
    });
    if (result.ok) return result.session;
    // A field of the page (address, business details, terms) is the caller's mistake, not a card error.
    if (!["email", "number", "expiry", "cvc"].includes(result.param)) {
      throw new StripeApiError(400, "invalid_request_error", result.message, result.code, result.param);
    }
    return reply
      .status(402)
      .send(
        new StripeApiError(
          402,
          "card_error",
          result.message,
          result.code,
          undefined,
          result.declineCode,
        ).toBody(),
      );
  });

  // What the hosted page saves as the buyer types their email and ticks (or not) the promotions box.
  route("POST", "/checkout/sessions/:id/consent", (params, body) => {
    const input = parseBody(schemas.consent, body);
    const { account, session } = findCheckoutSession(emulator, params.id ?? "");
    expireIfDue(emulator, account, session);
    if (!saveBuyerConsent(emulator, session, { email: input.email, optIn: input.promotions })) {
      throw new StripeApiError(
        400,
        "invalid_request_error",
        "This Checkout Session does not collect promotions consent, is no longer open, or the email is invalid.",
        undefined,
        "email",
      );
    }
    return session;
  });

  route("POST", "/checkout/sessions/:id/expire", (params) => {
    const { account, session } = findCheckoutSession(emulator, params.id ?? "");
    return expireCheckoutSession(emulator, account, session, AUTOMATIC);
  });

  // Stripe Tax without the Dashboard page: the head office (activates the settings) and registrations.
  route("POST", "/accounts/:id/tax/head_office", (params, body) => {
    const address = parseBody(schemas.headOffice, body);
    return updateTaxSettings(emulator, connectedAccountId(params.id), { headOffice: address }, AUTOMATIC);
  });

  route("POST", "/accounts/:id/tax/registrations", (params, body) => {
    const input = parseBody(schemas.registration, body);
    const country = input.country.toLowerCase();
    return createRegistration(emulator, connectedAccountId(params.id), {
      country: input.country,
      countryOptions: { [country]: { type: input.type, state: input.state } },
      activeFrom: input.active_from,
      expiresAt: input.expires_at,
    });
  });

  route("POST", "/accounts/:id/complete_onboarding", (params) => {
    const account = store.state.accounts[params.id ?? ""];
    if (!account) throw resourceMissing("account", params.id ?? "");
    return finishOnboarding(emulator, account);
  });

  route("POST", "/subscriptions/:id/renew", (params, body) => {
    const { outcome, final } = parseBody(schemas.renew, body);
    const { account, object } = subscriptionById(params.id ?? "");
    return renewSubscription(emulator, account, object, outcome, final);
  });

  // How the next automatic charge (renewal, end of trial, or retry) goes; used once, then paid again.
  route("POST", "/subscriptions/:id/next_renewal", (params, body) => {
    const { outcome } = parseBody(schemas.nextRenewal, body);
    const { object } = subscriptionById(params.id ?? "");
    const record = subscriptionRecord(emulator, object.id);
    saveSubscriptionRecord(emulator, object.id, { ...record, nextRenewal: outcome });
    return { subscription: object.id, next_renewal: outcome };
  });

  // What the hosted invoice page's "Pay" does.
  route("POST", "/invoices/:id/pay", (params, body, _query, reply) => {
    const input = parseBody(schemas.payInvoice, body);
    const found = findInvoice(emulator, params.id ?? "");
    if (!found) throw resourceMissing("invoice", params.id ?? "");
    const result = payInvoiceWithCard(
      emulator,
      found.account,
      found.invoice,
      { number: input.card, expiry: input.expiry, cvc: input.cvc },
      AUTOMATIC,
    );
    if (result.ok) return result.invoice;
    return reply
      .status(402)
      .send(
        new StripeApiError(
          402,
          "card_error",
          result.message,
          result.code,
          undefined,
          result.declineCode,
        ).toBody(),
      );
  });

  // The cardholder's bank disputes a charge (a chargeback): `needs_response`, money withdrawn.
  route("POST", "/charges/:id/dispute", (params, body) => {
    const input = parseBody(schemas.dispute, body);
    const { account, charge } = findCharge(emulator, params.id ?? "");
    return openDispute(emulator, account, charge, input, AUTOMATIC);
  });

  // The bank decides: `won` gives the money back, either way the dispute closes.
  route("POST", "/disputes/:id/resolve", (params, body) => {
    const { outcome } = parseBody(schemas.resolveDispute, body);
    const { account, dispute } = findDispute(emulator, params.id ?? "");
    return resolveDispute(emulator, account, dispute, outcome, AUTOMATIC);
  });

  route("GET", "/events", (_params, _body, query) => {
    const filter = parseBody(schemas.eventsQuery, query);
    const data = store.state.events.filter(
      (record) =>
        (filter.type === undefined || record.event.type === filter.type) &&
        (filter.account === undefined || record.event.account === filter.account),
    );
    return { object: "list", data };
  });

  route("GET", "/events/:id", (params) => eventById(params.id ?? ""));

  // Endpoints made through the API, with what Stripe never shows again: the secret and `connect`.
  route("GET", "/webhook_endpoints", () => ({
    object: "list",
    data: Object.values(store.state.webhookEndpoints).reverse(),
  }));

  route("POST", "/events/:id/redeliver", async (params) => {
    const record = eventById(params.id ?? "");
    return emulator.webhooks.deliverOnce(record, "redeliver");
  });

  // Delivers the given events one after another, in the order given (so out of order if asked),
  // each `times` times in a row: what a webhook handler must survive.
  route("POST", "/events/deliver", async (_params, body) => {
    const { event_ids: ids, times } = parseBody(schemas.deliver, body);
    const records = ids.map(eventById);
    const attempts: (DeliveryAttempt & { event: string })[] = [];
    for (const record of records) {
      for (let round = 0; round < times; round++) {
        attempts.push({ event: record.event.id, ...(await emulator.webhooks.deliverOnce(record, "batch")) });
      }
    }
    return { attempts };
  });
}
