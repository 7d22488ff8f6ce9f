import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let token = "";
  for (const byte of bytes) token += ALPHABET[byte % ALPHABET.length];
  return token;
}

/** Ids shaped like Stripe's: a type prefix and 24 random characters (`cus_…`, `pi_…`, `cs_test_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomToken(24)}`;
}

/** Checkout Session ids carry the mode, and are longer, like Stripe's. */
export function newCheckoutSessionId(): string {
  return `cs_test_${randomToken(58)}`;
}

export function newRequestId(): string {
  return `req_${randomToken(14)}`;
}

/** Coupons made without an `id` get eight random capitals and digits, as in Stripe (`Z4OV52SU`). */
export function newCouponId(): string {
  return randomToken(8).toUpperCase();
}
