import Stripe from "stripe";

export type StripeTarget =
  | { kind: "stripe"; secretKey: string }
  | { kind: "emulator"; host: string; port: number };

/**
 * The one place a Stripe client is made. Business code gets this client and never knows whether
 * it talks to api.stripe.com or to the local emulator.
 */
export function createStripeClient(target: StripeTarget): Stripe {
  if (target.kind === "stripe") return new Stripe(target.secretKey, { maxNetworkRetries: 2 });
  return new Stripe("sk_test_local_emulator", {
    host: target.host,
    port: target.port,
    protocol: "http",
    maxNetworkRetries: 1,
  });
}

export async function isStripeReachable(stripe: Stripe): Promise<boolean> {
  return stripe.customers.list({ limit: 1 }).then(
    () => true,
    () => false,
  );
}
