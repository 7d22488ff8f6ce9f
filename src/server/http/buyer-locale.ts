import type { FastifyReply, FastifyRequest } from "fastify";
import {
  DEFAULT_LOCALE,
  LOCALE_COOKIE,
  LOCALE_PARAM,
  type Locale,
  localeFromAcceptLanguage,
  supportedLocale,
} from "../../contracts/i18n/locales";
import { cookieValue, rememberChoice } from "./visitor";

/** Each request's answer, so the route and the page it renders (or its not-found page) ask once. */
const answered = new WeakMap<FastifyRequest, Locale>();

/**
 * The language a buyer's page answers in (docs/i18n.md): the switcher's `?lang=`, then the cookie that
 * remembers it, then Accept-Language, then English. A valid `?lang=` is remembered for a year (a
 * first-party preference, readable by nothing but us). The answer varies by both headers, which it says.
 * Asked again for the same request, it answers the same without setting anything twice.
 */
export function buyerLocale(request: FastifyRequest, reply: FastifyReply): Locale {
  const known = answered.get(request);
  if (known) return known;
  const chosen = switcherLocale(request);
  if (chosen) rememberChoice(request, reply, LOCALE_COOKIE, chosen);
  reply.header("vary", "Accept-Language, Cookie");
  const locale = requestedLocale(request) ?? DEFAULT_LOCALE;
  answered.set(request, locale);
  return locale;
}

/** The switcher's `?lang=`, when it names a language we speak. */
function switcherLocale(request: FastifyRequest): Locale | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const param = query?.[LOCALE_PARAM];
  return supportedLocale(typeof param === "string" ? param : undefined);
}

/**
 * The language a buyer's action asks for (Buy Now, Subscribe, a free claim, a new link), in
 * negotiateLocale's order (`?lang=`, the `lang` cookie, Accept-Language), or undefined when the request
 * names none we speak: a checkout then records English but lets Stripe's Checkout pick from the browser
 * (`locale: "auto"`), which speaks more languages than we do. Nothing is set on the answer.
 */
export function requestedLocale(request: FastifyRequest): Locale | undefined {
  return (
    switcherLocale(request) ??
    supportedLocale(cookieValue(request.headers.cookie, LOCALE_COOKIE)) ??
    localeFromAcceptLanguage(request.headers["accept-language"])
  );
}
