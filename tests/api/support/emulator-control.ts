import type Stripe from "stripe";
import type { RunningStripeEmulator } from "../../../src/stripe-emulator";

/** What a buyer types on the hosted Checkout page (with Stripe Tax: the billing address, a business). */
export interface CheckoutPayer {
  card?: string;
  email?: string;
  name?: string;
  address?: { country: string; state?: string; postal_code?: string; line1?: string; city?: string };
  business_name?: string;
  tax_id?: string;
  /** The withdrawal waiver's box; ticked unless said otherwise, as a buyer who pays must. */
  terms_of_service?: boolean;
  /** Adaptive Pricing: the buyer's browser languages (their country, hence the currency offered). */
  accept_language?: string;
  /** Adaptive Pricing: the currency they pay in (the session's, or the offered one: the default). */
  currency?: string;
}

/** The Stripe emulator's control API (`/_emulator/...`), for driving payments without a browser. */
export function control(emulator: RunningStripeEmulator) {
  const call = async <T>(method: "GET" | "POST", path: string, body?: object): Promise<T> => {
    const response = await fetch(`${emulator.url}/_emulator${path}`, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as T;
    if (!response.ok)
      throw new Error(`emulator ${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    payCheckout: (sessionId: string, card = "4242424242424242", email?: string) =>
      call<Stripe.Checkout.Session>("POST", `/checkout/sessions/${sessionId}/complete`, {
        card,
        terms_of_service: true,
        ...(email ? { email } : {}),
      }),
    /** Pays as a buyer who typed these on the page (billing address, business, the waiver's box). */
    payCheckoutAs: (sessionId: string, payer: CheckoutPayer) =>
      call<Stripe.Checkout.Session>("POST", `/checkout/sessions/${sessionId}/complete`, {
        card: "4242424242424242",
        terms_of_service: true,
        ...payer,
      }),
    /** The seller sets their head office in Stripe Tax (their settings become active). */
    setTaxHeadOffice: (accountId: string, address: { country: string; state?: string }) =>
      call("POST", `/accounts/${accountId}/tax/head_office`, address),
    addTaxRegistration: (
      accountId: string,
      registration: { country: string; type: string; state?: string },
    ) => call("POST", `/accounts/${accountId}/tax/registrations`, registration),
    expireCheckout: (sessionId: string) => call("POST", `/checkout/sessions/${sessionId}/expire`),
    completeOnboarding: (accountId: string) => call("POST", `/accounts/${accountId}/complete_onboarding`),
    renew: (subscriptionId: string, outcome: "paid" | "failed", final = false) =>
      call("POST", `/subscriptions/${subscriptionId}/renew`, { outcome, final }),
    advanceClock: (seconds: number) => call("POST", "/clock/advance", { seconds }),
    /** Opens a dispute (chargeback) of a charge, as a cardholder would through their bank. */
    dispute: (chargeId: string, reason = "fraudulent") =>
      call<Stripe.Dispute>("POST", `/charges/${chargeId}/dispute`, { reason }),
    events: async () =>
      (await call<{ data: Array<{ event: Stripe.Event }> }>("GET", "/events")).data.map(
        (record) => record.event,
      ),
    redeliver: (eventId: string) => call("POST", `/events/${eventId}/redeliver`),
    /** How many events the emulator is still trying to deliver (0 once every webhook has landed). */
    pendingEvents: async () =>
      (await call<{ data: Array<{ status: string }> }>("GET", "/events")).data.filter(
        (record) => record.status === "pending",
      ).length,
  };
}
