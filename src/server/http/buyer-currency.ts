import type { FastifyReply, FastifyRequest } from "fastify";
import { CURRENCY_COOKIE, CURRENCY_PARAM, wantedCurrency } from "../../contracts/currencies";
import { cookieValue, rememberChoice } from "./visitor";

/** The buyer's country from the proxy's header (two letters, upper case), when there is one. */
export function buyerCountry(request: FastifyRequest, header: string | undefined): string | undefined {
  const value = header ? request.headers[header] : undefined;
  const country = typeof value === "string" ? value.trim().toUpperCase() : "";
  return /^[A-Z]{2}$/.test(country) && country !== "XX" ? country : undefined;
}

const paramOf = (request: FastifyRequest): string | undefined => {
  const value = (request.query as Record<string, unknown> | undefined)?.[CURRENCY_PARAM];
  return typeof value === "string" ? value.trim().toLowerCase() : undefined;
};

/**
 * The currency a buyer's request asks for (docs/money.md): the switcher's `?currency=`, its cookie, the
 * proxy's country, then Accept-Language's region; undefined when nothing names one we show. No side
 * effects: Buy Now and the pages alike read it.
 */
export function requestedCurrency(
  request: FastifyRequest,
  countryHeader: string | undefined,
): string | undefined {
  return wantedCurrency({
    param: paramOf(request),
    cookie: cookieValue(request.headers.cookie, CURRENCY_COOKIE),
    country: buyerCountry(request, countryHeader),
    acceptLanguage: request.headers["accept-language"],
  });
}

/**
 * requestedCurrency for a page's answer: a switcher's valid choice is remembered for a year, and the
 * answer says what it varies by (the country header too, when a proxy sets one).
 */
export function pageCurrency(
  request: FastifyRequest,
  reply: FastifyReply,
  countryHeader: string | undefined,
): string | undefined {
  const wanted = requestedCurrency(request, countryHeader);
  const param = paramOf(request);
  if (param && param === wanted) rememberChoice(request, reply, CURRENCY_COOKIE, param);
  if (countryHeader) reply.header("vary", `Accept-Language, Cookie, ${countryHeader}`);
  return wanted;
}
