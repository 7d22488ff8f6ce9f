import { RATE_LIMIT_MESSAGES } from "../../../contracts/i18n/buyer-messages";
import type { Database } from "../../db/database";
import { enforceRateLimit } from "../../http/rate-limit";
import { networkOf } from "../../http/visitor";

/**
 * Every evaluation of a code a buyer typed, by any route (the price API, the product page's `?code=`,
 * Buy Now and "Email me the download", as JSON or as forms), counts against this one limit per
 * network (an IPv4 address or IPv6 /64, as checkout holds are counted): a buyer tries a code or two,
 * someone guessing codes is kept slow, and no route offers a way around it.
 */
export const CODE_TRY_LIMIT = { name: "discount-code:network", limit: 60, windowSeconds: 60 };
export const CODE_TRY_LIMIT_MESSAGE = RATE_LIMIT_MESSAGES.codeTries;

declare const counted: unique symbol;
/**
 * A code a buyer typed that was counted against its network's limit. Codes are evaluated only from
 * one of these (evaluate-discount-code.ts), so no route can evaluate a code it did not count.
 */
export type CodeTry = { readonly typed: string; readonly [counted]: true };

/** The try each request was allowed, so its refusal page can show the code's price without counting it twice. */
const allowedTries = new WeakMap<object, CodeTry>();

/**
 * Counts the code `typed` in `request` against its network's limit, before anything about the code is
 * read: a 429 past the limit. Undefined when no code was typed (nothing to count). Each request counts
 * once, however often it evaluates its code.
 */
export async function allowCodeTry(
  db: Database,
  request: { ip: string },
  typed: string | undefined,
  now: Date,
): Promise<CodeTry | undefined> {
  if (!typed?.trim()) return undefined;
  const earlier = allowedTries.get(request);
  if (earlier?.typed === typed) return earlier;
  await enforceRateLimit(db, CODE_TRY_LIMIT, networkOf(request.ip), CODE_TRY_LIMIT_MESSAGE, now);
  const allowed = { typed } as CodeTry;
  allowedTries.set(request, allowed);
  return allowed;
}

/**
 * The code this request was allowed to evaluate, if any: a request refused before its code was counted
 * (another limit, or this one) has none, and its answer must say nothing about the code.
 */
export function allowedCodeTry(request: object): CodeTry | undefined {
  return allowedTries.get(request);
}
