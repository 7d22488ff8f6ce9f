/**
 * A deep copy as it would go over the wire. Unlike `structuredClone`, it keeps what `toJSON` makes of
 * values such as `Stripe.Decimal` (a string), so the copy always serializes.
 */
export function snapshot<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}
