import type { FastifyReply, FastifyRequest } from "fastify";
import { RATE_LIMIT_MESSAGES } from "../../../contracts/i18n/buyer-messages";
import { FREE_CLAIM_MESSAGES, type FreeClaim } from "../../../contracts/products";
import { type BusinessBuyer, businessBuyerSchema } from "../../../contracts/tax";
import { buyerCountry, requestedCurrency } from "../../http/buyer-currency";
import { requestedLocale } from "../../http/buyer-locale";
import { AppError } from "../../http/errors";
import { enforceRateLimit } from "../../http/rate-limit";
import { type CheckoutVisitor, checkoutBrowserId, checkoutVisitor } from "../../http/visitor";
import { NO_SOURCE, sourceOfFields } from "../analytics";
import { allowCodeTry } from "../discounts";
import { claimFreeProduct, FREE_CLAIM_LIMITS } from "./claim-free-product";
import { type CheckoutDeps, createBuyerCheckout } from "./create-checkout";
import { createMembershipCheckout, type MembershipChoice } from "./create-membership-checkout";
import { textField } from "./purchase-price";

const CHECKOUT_LIMIT = { name: "checkout:ip", limit: 30, windowSeconds: 60 };

export type CheckoutRouteDeps = CheckoutDeps & {
  visitorKey: string;
  now: () => Date;
  /** The header a proxy or CDN puts the buyer's country in, when there is one. */
  buyerCountryHeader?: string;
};

/**
 * Who presses Buy Now or Subscribe: their network and browser (hashed), the proxy's country, and the
 * language their request asks for (`?lang=`, the `lang` cookie, Accept-Language), which the checkout
 * records for Checkout and the purchase's emails.
 */
function buyerVisitor(
  deps: CheckoutRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): CheckoutVisitor {
  const browserId = checkoutBrowserId(request, reply, deps.appUrl.startsWith("https://"));
  const country = buyerCountry(request, deps.buyerCountryHeader);
  const locale = requestedLocale(request);
  const currency = requestedCurrency(request, deps.buyerCountryHeader);
  return {
    ...checkoutVisitor(deps.visitorKey, request.ip, browserId),
    ...(country ? { country } : {}),
    ...(locale ? { locale } : {}),
    ...(currency ? { currency } : {}),
  };
}

/** A business buyer's name and VAT number as typed (checked later, before anything is held). */
function businessFields(request: FastifyRequest): BusinessBuyer {
  return businessBuyerSchema.parse({
    businessName: textField(request.body, "businessName", 300) ?? "",
    vatNumber: textField(request.body, "vatNumber", 60) ?? "",
  });
}

/**
 * Buy Now, for the JSON route and the product page's form alike: the Stripe Checkout URL of a new (or
 * this visitor's open) checkout of the product, priced with the buyer's discount code (`code`) and, for
 * pay what you want, the amount they chose (`amount`, in dollars). Rate limited per IP, then the code
 * counted against its network's tries (code-tries.ts) before it is read. The page's source fields
 * (`ref`, `utm_*`) say where the visit came from, for the sale's attribution.
 */
export async function buyNow(
  deps: CheckoutRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  productId: string,
) {
  const now = deps.now();
  await enforceRateLimit(deps.db, CHECKOUT_LIMIT, request.ip, RATE_LIMIT_MESSAGES.checkouts, now);
  const code = await allowCodeTry(deps.db, request, textField(request.body, "code"), now);
  const visitor = buyerVisitor(deps, request, reply);
  return createBuyerCheckout(
    deps,
    productId,
    visitor,
    now,
    {
      code,
      amount: textField(request.body, "amount", 32),
      business: businessFields(request),
      currency: textField(request.body, "currency", 8),
    },
    sourceOfFields(request.body),
  );
}

/** What a recovery link brings the buyer back to (checkout-recovery room): the checkout they left. */
export interface LeftCheckout {
  /** The expired checkout, which the new one names as the one it recovers. */
  checkoutId: string;
  productId: string;
  currency: string;
  /** A pay-what-you-want amount the buyer had chosen, as a decimal ("15.50"); ignored for a fixed price. */
  amount?: string | undefined;
  /** The discount code the checkout was priced with, applied again if it still applies. */
  code?: string | null | undefined;
}

/**
 * A recovery link's "Continue to checkout": Buy Now for the product the buyer left, in the currency and
 * at the amount they had chosen, with their code if it still applies (else without it), rate limited
 * with Buy Now. The new checkout records the one it recovers, for the sale's "Recovered" figure.
 */
export async function buyAgain(
  deps: CheckoutRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  left: LeftCheckout,
): Promise<string> {
  const now = deps.now();
  await enforceRateLimit(deps.db, CHECKOUT_LIMIT, request.ip, RATE_LIMIT_MESSAGES.checkouts, now);
  const visitor = buyerVisitor(deps, request, reply);
  const choice = { currency: left.currency, amount: left.amount };
  const code = left.code ? await allowCodeTry(deps.db, request, left.code, now) : undefined;
  try {
    return await createBuyerCheckout(
      deps,
      left.productId,
      visitor,
      now,
      { ...choice, code },
      NO_SOURCE,
      left.checkoutId,
    );
  } catch (error) {
    // The code ended meanwhile (expired, used up): the product at its price, as Buy Now would sell it.
    if (!code || !(error instanceof AppError) || error.code !== "discount_refused") throw error;
    return createBuyerCheckout(deps, left.productId, visitor, now, choice, NO_SOURCE, left.checkoutId);
  }
}

/**
 * "Email me the download", for the JSON route and the product page's form alike: a product the buyer
 * gets for $0 becomes an order without Stripe, its link sent to the email (claim-free-product.ts).
 * Limited to 10 an hour per IP and 3 per email, then the code counted against its network's tries.
 */
export async function claimFree(
  deps: CheckoutRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  claim: FreeClaim,
): Promise<void> {
  const now = deps.now();
  const email = claim.email.toLowerCase();
  await enforceRateLimit(deps.db, FREE_CLAIM_LIMITS.perIp, request.ip, FREE_CLAIM_MESSAGES.tooMany, now);
  await enforceRateLimit(deps.db, FREE_CLAIM_LIMITS.perEmail, email, FREE_CLAIM_MESSAGES.tooMany, now);
  const code = await allowCodeTry(deps.db, request, claim.code, now);
  const browserId = checkoutBrowserId(request, reply, deps.appUrl.startsWith("https://"));
  const locale = requestedLocale(request);
  const visitor = {
    ...checkoutVisitor(deps.visitorKey, request.ip, browserId),
    ...(locale ? { locale } : {}),
  };
  await claimFreeProduct(deps, { productId: claim.productId, email, code }, visitor, now);
}

/**
 * Subscribe, for the JSON route and a membership page's tier forms alike: the Stripe Checkout URL of a
 * subscription to the chosen tier and interval (create-membership-checkout.ts), with the buyer's code
 * (`code`, counted against its network's tries before it is read), in the `currency` the page showed
 * the tier in and, buying as a business, `businessName` and `vatNumber` (checked as Buy Now's). Rate limited per IP with Buy Now; the page's
 * source fields attribute the membership's first sale.
 */
export async function subscribe(
  deps: CheckoutRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  productId: string,
  choice: MembershipChoice,
) {
  const now = deps.now();
  await enforceRateLimit(deps.db, CHECKOUT_LIMIT, request.ip, RATE_LIMIT_MESSAGES.checkouts, now);
  const code = await allowCodeTry(deps.db, request, textField(request.body, "code"), now);
  const visitor = buyerVisitor(deps, request, reply);
  return createMembershipCheckout(
    deps,
    productId,
    {
      ...choice,
      code,
      business: businessFields(request),
      currency: choice.currency ?? textField(request.body, "currency", 8),
    },
    visitor,
    now,
    sourceOfFields(request.body),
  );
}
