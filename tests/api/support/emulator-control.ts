import type Stripe from "stripe";
import type { RunningStripeEmulator } from "../../../src/stripe-emulator";

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
        ...(email ? { email } : {}),
      }),
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
