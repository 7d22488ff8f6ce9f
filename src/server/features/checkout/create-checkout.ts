import { randomBytes } from "node:crypto";
import type { Insertable } from "kysely";
import Stripe from "stripe";
import type { VisitSource } from "../../../contracts/analytics";
import { CURRENCY_MESSAGES, offeredCurrency } from "../../../contracts/currencies";
import { DISCOUNT_REFUSAL_MESSAGES } from "../../../contracts/discounts";
import { DEFAULT_LOCALE } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import { ORDER_MESSAGES, PURCHASE_RULES } from "../../../contracts/orders";
import { PAY_WHAT_YOU_WANT_MESSAGES } from "../../../contracts/products";
import { type ChangeDeps, commitChange } from "../../adapters/events/commit-change";
import type { VatNumberChecker } from "../../adapters/vat-check/vat-checker";
import type { Database } from "../../db/database";
import type { CheckoutTable } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { CheckoutVisitor } from "../../http/visitor";
import { NO_SOURCE, recordCheckoutSource } from "../analytics";
import { holdCodeUse } from "../discounts";
import {
  type CheckoutRef,
  closeCheckout,
  readCheckoutSession,
  type SettleDeps,
  settleCheckout,
  takeUnit,
} from "../orders";
import { getPublicProduct, productInCurrency } from "../products";
import { adaptivePricingFor } from "../store-currency";
import {
  checkBusinessBuyer,
  checkoutTaxParams,
  checkoutTaxTerms,
  createBusinessCustomer,
  productTaxCategory,
  waiverRequired,
  withdrawalWaiverText,
} from "../tax";
import { type BuyerChoice, decidePurchasePrice } from "./purchase-price";

const EXPIRY_MARGIN_MS = 15_000;
/**
 * How long a checkout holds a use of a code with a maximum of uses, against the session's 30 minutes
 * (Stripe's shortest): paying on Checkout takes a few minutes, 3-D Secure or a bank app included, while
 * an abandoned checkout keeps the use from every other buyer. After 15 minutes the janitor (every 2
 * minutes) expires the session on Stripe and gives the use back, so it is back within 17 minutes, not
 * 35; a buyer slower than that presses Buy Now again. Other checkouts hold nothing scarce by the code.
 */
export const CODE_HOLD_MS = 15 * 60_000;

export type CheckoutDeps = SettleDeps & { vatChecker: VatNumberChecker };

const newHoldId = () => `hold_${randomBytes(12).toString("base64url")}`;
const alreadyOpen = () => new AppError("checkout_open", 409, ORDER_MESSAGES.checkoutAlreadyOpen);

/**
 * create-checkout: a Stripe Checkout session for one product, as a direct charge on the seller's
 * own Stripe account with no application fee (we take 0%).
 * The price is decided here (purchase-price.ts), from the product, the discount code the buyer typed
 * and, for a pay-what-you-want product, the amount they chose; a purchase at $0 is a free claim
 * (claim-free-product.ts), never a checkout. A limited product's unit and the code's use are taken and the checkout
 * recorded in one transaction before Stripe is asked, so a crash at any point leaves a record the
 * janitor settles (settle-checkouts.ts). One network holds one unit of a limited product at a time;
 * a code's use is held per browser (CODE_HOLD_MS), so neighbours may each use a code and nothing
 * about an unlimited product is held by network. The same browser gets its open checkout back.
 */
export async function createBuyerCheckout(
  deps: CheckoutDeps,
  productId: string,
  visitor: CheckoutVisitor,
  now: Date,
  choice: BuyerChoice = {},
  source: VisitSource = NO_SOURCE,
  /** Made from a recovery link (docs/checkout-recovery.md): the expired checkout it recovers. */
  recoveredFrom: string | null = null,
): Promise<string> {
  const stored = await getPublicProduct(deps.db, productId, now);
  const currency = checkoutCurrency(stored, visitor, choice);
  let product = productInCurrency(stored, currency);
  const limited = product.inventoryType === "limited";
  const { amountCents, discount } = await decidePurchasePrice(deps.db, product, choice, now);
  if (amountCents === 0) {
    const message =
      product.priceMode === "flexible"
        ? PAY_WHAT_YOU_WANT_MESSAGES.amountZero
        : PAY_WHAT_YOU_WANT_MESSAGES.freeUseEmail;
    throw new AppError("free_purchase", 422, message, { field: "amount" });
  }
  // First: the buyer holding the last unit (or use) must get their checkout back, not "sold out".
  const networkHold = await openCheckoutOfNetwork(
    deps,
    productId,
    visitor,
    {
      codeId: discount?.codeId ?? null,
      amountCents,
      currency,
    },
    now,
  );
  if (networkHold.url) return networkHold.url;
  // The buyer's own checkout at another price just ended, and gave its unit back.
  if (networkHold.replaced) product = await productIn(deps, productId, currency, now);
  // Someone else on this network holds a unit: they are told to wait, unless nothing is left anyway.
  if (networkHold.waiting && product.purchasable) throw alreadyOpen();
  if (!product.purchasable) {
    throw new AppError(
      "not_purchasable",
      409,
      product.soldOut ? ORDER_MESSAGES.soldOut : ORDER_MESSAGES.notPurchasable,
    );
  }
  const account = await payoutAccountOf(deps.db, product.seller.id);
  // A business buyer's VAT number is checked before anything is held: refused, nothing changes.
  const business = choice.business
    ? await checkBusinessBuyer(deps, choice.business, visitor.networkHash, now)
    : undefined;
  const taxTerms = await checkoutTaxTerms(deps.db, product.seller.id);
  // The buyer's language: Checkout's, the waiver's wording, then the order's emails'.
  const locale = visitor.locale ?? DEFAULT_LOCALE;
  const waiver = waiverRequired(taxTerms, visitor.country) ? withdrawalWaiverText(locale) : null;

  // Stripe wants at least 30 minutes from *its* clock when it creates the session, a moment after ours.
  const expiresAt = new Date(now.getTime() + PURCHASE_RULES.checkoutMinutes * 60_000 + EXPIRY_MARGIN_MS);
  const hold: CheckoutRef = {
    id: newHoldId(),
    stripe_session_id: null,
    stripe_account_id: account,
    created_at: now,
  };
  await recordHold(deps, limited, source, {
    ...hold,
    seller_id: product.seller.id,
    product_id: product.id,
    reservation: limited ? "held" : "none",
    network_hash: visitor.networkHash,
    visitor_hash: visitor.visitorHash,
    expires_at: expiresAt,
    discount_code_id: discount?.codeId ?? null,
    code_hold_ends_at: discount?.limitedUses ? new Date(now.getTime() + CODE_HOLD_MS) : null,
    discount_code: discount?.code ?? null,
    original_price_cents: discount?.originalPriceCents ?? product.priceCents,
    discount_cents: discount?.discountCents ?? 0,
    buyer_business_name: business?.businessName ?? null,
    buyer_tax_id: business?.vat ? `${business.vat.prefix}${business.vat.number}` : null,
    buyer_tax_id_check: business?.check ? JSON.stringify(business.check) : null,
    withdrawal_waiver: waiver,
    buyer_locale: locale,
    currency,
    recovered_from: recoveredFrom,
  });
  try {
    const metadata = {
      product_id: product.id,
      seller_id: product.seller.id,
      hold_id: hold.id,
      ...(discount ? { discount_code: discount.code } : {}),
    };
    const customer = business
      ? await createBusinessCustomer(deps.stripe, account, business, taxTerms, `customer-${hold.id}`)
      : undefined;
    const tax = checkoutTaxParams(taxTerms, await productTaxCategory(deps.db, product.id), waiver, customer);
    const { t, money } = translator(locale);
    const inCurrency = (cents: number) => money(cents, currency);
    const adaptive = await adaptivePricingFor(deps.db, product.seller.id, currency);
    // Checkout asks whether the buyer wants to hear from the store when the store sends recovery
    // emails (docs/checkout-recovery.md): a buyer who agrees and leaves gets one reminder.
    const promotions = await sendsRecoveryEmails(deps.db, product.seller.id);
    const consent = {
      ...tax.session.consent_collection,
      ...(promotions ? { promotions: "auto" as const } : {}),
    };
    const cover = product.coverImageUrl?.startsWith("/")
      ? `${deps.appUrl}${product.coverImageUrl}`
      : product.coverImageUrl;
    const session = await createCheckoutSession(
      deps.stripe,
      {
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency,
              unit_amount: amountCents,
              ...tax.price,
              product_data: {
                name: product.title,
                ...tax.product,
                ...(discount && product.priceMode === "fixed"
                  ? {
                      description: t("checkout.codeDiscount", {
                        code: discount.code,
                        off: inCurrency(discount.discountCents),
                        original: inCurrency(discount.originalPriceCents),
                      }),
                    }
                  : {}),
                ...(product.priceMode === "flexible"
                  ? {
                      description: discount
                        ? t("checkout.payWhatYouWantWithCode", {
                            minimum: inCurrency(discount.priceCents),
                            code: discount.code,
                          })
                        : t("checkout.payWhatYouWant", { minimum: inCurrency(product.priceCents) }),
                    }
                  : {}),
                ...(cover?.startsWith("https://") ? { images: [cover] } : {}),
              },
            },
          },
        ],
        ...tax.session,
        ...(Object.keys(consent).length > 0 ? { consent_collection: consent } : {}),
        ...(adaptive ? { adaptive_pricing: { enabled: true } } : {}),
        // Checkout in the buyer's language; a request that named none of ours lets Stripe pick from the
        // browser, as it speaks more languages than we do.
        locale: visitor.locale ?? "auto",
        metadata,
        payment_intent_data: { metadata },
        expires_at: Math.floor(expiresAt.getTime() / 1000),
        success_url: `${deps.appUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${deps.appUrl}/product/${product.id}`,
      },
      // A retry of this request (the SDK's own) can never make a second session for the hold.
      { stripeAccount: account, idempotencyKey: `checkout-${hold.id}` },
    );
    const attached = await deps.db
      .updateTable("checkouts")
      .set({ stripe_session_id: session.id })
      .where("id", "=", hold.id)
      .where("state", "=", "open")
      .returning("id")
      .executeTakeFirst();
    // The janitor gave the hold up while Stripe was slow to answer: nobody may pay for it now.
    if (!attached) throw new AppError("checkout_interrupted", 503, ORDER_MESSAGES.checkoutInterrupted);
    if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
    return session.url;
  } catch (error) {
    // Nobody was given this checkout's page: end it now, or the janitor will if this fails too.
    await abandonHold(deps, hold, error, now).catch(() => {});
    // The seller's Stripe account refused (restricted, closed...): a buyer can only be told to wait.
    if (error instanceof Stripe.errors.StripeError) {
      throw new AppError("not_purchasable", 409, ORDER_MESSAGES.notPurchasable);
    }
    throw error;
  }
}

/**
 * The seller's connected Stripe account, where the buyer pays. A product that can be had for $0 is
 * public without Stripe (free claims need none); paying needs the account, onboarded.
 */
export async function payoutAccountOf(db: Database, sellerId: string): Promise<string> {
  const seller = await db
    .selectFrom("profiles")
    .select(["stripe_connect_account_id", "stripe_connect_onboarding_complete"])
    .where("id", "=", sellerId)
    .executeTakeFirstOrThrow();
  if (!seller.stripe_connect_onboarding_complete || !seller.stripe_connect_account_id) {
    throw new AppError("not_purchasable", 409, ORDER_MESSAGES.notPurchasable);
  }
  return seller.stripe_connect_account_id;
}

interface NetworkHold {
  /** The buyer's own open checkout at the same price (code and amount): its Checkout page. */
  url?: string;
  /** Another browser on the network holds a unit of this limited product (or a checkout is being made). */
  waiting: boolean;
  /** The buyer's own open checkout with another code (or none) was ended: its unit and use went back. */
  replaced: boolean;
}

/**
 * The open checkouts of this product that hold something for the buyer: a unit held by the buyer's
 * network, or the buyer's own browser's code use. The buyer's own comes back as its Checkout page when
 * it has the same code and amount and its code hold has not lapsed, and is ended otherwise (another
 * code or none, another amount, a lapsed hold); another browser's only stands in the way when it holds
 * a unit of a limited product. One that has ended on Stripe (paid, expired) is settled first, so the
 * network may hold a new one.
 */
async function openCheckoutOfNetwork(
  deps: CheckoutDeps,
  productId: string,
  visitor: CheckoutVisitor,
  { codeId, amountCents, currency }: { codeId: string | null; amountCents: number; currency: string },
  now: Date,
): Promise<NetworkHold> {
  const holds = await deps.db
    .selectFrom("checkouts")
    .select([
      "id",
      "stripe_session_id",
      "stripe_account_id",
      "created_at",
      "visitor_hash",
      "reservation",
      "discount_code_id",
      "code_hold_ends_at",
    ])
    .where("product_id", "=", productId)
    .where("network_hash", "=", visitor.networkHash)
    .where("state", "=", "open")
    .where((eb) =>
      eb.or([
        eb("reservation", "=", "held"),
        eb.and([eb("visitor_hash", "=", visitor.visitorHash), eb("discount_code_id", "is not", null)]),
      ]),
    )
    .execute();
  const found: NetworkHold = { waiting: false, replaced: false };
  for (const held of holds) {
    const own = held.visitor_hash === visitor.visitorHash;
    // Its session is still being created (or the request creating it died: the janitor ends it).
    if (!held.stripe_session_id) {
      found.waiting = true;
      continue;
    }
    const session = await readCheckoutSession(deps.stripe, held);
    if (session?.status !== "open") {
      await settleCheckout(deps, held.id, session, now);
    } else if (!own) {
      found.waiting = true;
    } else if (
      held.discount_code_id === codeId &&
      session.amount_total === amountCents &&
      session.currency === currency &&
      session.url &&
      !(held.code_hold_ends_at && held.code_hold_ends_at <= now)
    ) {
      return { ...found, url: session.url };
    } else {
      await closeCheckout(deps, held, now);
      found.replaced = true;
    }
  }
  return found;
}

/** Takes the unit (if limited) and the code's use (if any) and records the checkout, together or not at all. */
async function recordHold(
  deps: ChangeDeps,
  limited: boolean,
  source: VisitSource,
  checkout: Insertable<CheckoutTable> & { product_id: string; seller_id: string },
): Promise<void> {
  try {
    await commitChange(deps, async (trx, announce) => {
      if (limited && !(await takeUnit(trx, checkout.product_id))) {
        throw new AppError("sold_out", 409, ORDER_MESSAGES.soldOut);
      }
      if (checkout.discount_code_id && !(await holdCodeUse(trx, checkout.discount_code_id))) {
        throw new AppError("discount_refused", 422, DISCOUNT_REFUSAL_MESSAGES.used_up, { reason: "used_up" });
      }
      await trx.insertInto("checkouts").values(checkout).execute();
      await recordCheckoutSource(trx, checkout.id, source);
      // The unit taken shows on the seller's pages (stock left, sold out).
      if (limited) announce(checkout.seller_id, { type: "public-pages.changed" });
    });
  } catch (error) {
    // Another Buy Now from this network got there first (the same buyer pressing twice, say).
    if ((error as { code?: unknown }).code === "23505") throw alreadyOpen();
    throw error;
  }
}

/**
 * A request Stripe refused (4xx) made no session: the hold simply ends, as one whose session was never
 * made. Otherwise Stripe may have made one (a timeout, a lost answer): closeCheckout finds it by the
 * hold id and expires it.
 */
function abandonHold(deps: CheckoutDeps, hold: CheckoutRef, error: unknown, now: Date) {
  const refused = error instanceof Stripe.errors.StripeError && (error.statusCode ?? 500) < 500;
  return refused ? settleCheckout(deps, hold.id, undefined, now) : closeCheckout(deps, hold, now);
}

/**
 * The currency of this checkout (docs/money.md): the one the page showed the price in (its form's
 * `currency`, which the product must have a price in), else the one the buyer's request asks for when
 * the product has a price in it, else the store's.
 */
function checkoutCurrency(
  product: Parameters<typeof offeredCurrency>[0],
  visitor: CheckoutVisitor,
  choice: BuyerChoice,
): string {
  const chosen = choice.currency?.trim().toLowerCase();
  if (!chosen) return offeredCurrency(product, visitor.currency);
  if (offeredCurrency(product, chosen) !== chosen) {
    throw new AppError("currency_not_offered", 422, CURRENCY_MESSAGES.noPriceIn(chosen), {
      field: "currency",
    });
  }
  return chosen;
}

/** The product as it sells in `currency` (products/product-prices.ts). */
async function productIn(deps: CheckoutDeps, productId: string, currency: string, now: Date) {
  return productInCurrency(await getPublicProduct(deps.db, productId, now), currency);
}

/**
 * Stripe offers promotions consent to some merchants only (its reference: US ones). Refused for this
 * account, the session is made without the box (a request refused as invalid does not use up its
 * idempotency key), so Buy Now never fails for it; such a store then sends no recovery emails.
 */
async function createCheckoutSession(
  stripe: Stripe,
  params: Stripe.Checkout.SessionCreateParams,
  options: Stripe.RequestOptions,
): Promise<Stripe.Checkout.Session> {
  try {
    return await stripe.checkout.sessions.create(params, options);
  } catch (error) {
    const consent = params.consent_collection;
    const refusedConsent =
      error instanceof Stripe.errors.StripeInvalidRequestError &&
      error.param?.startsWith("consent_collection[promotions]");
    if (!refusedConsent || !consent?.promotions) throw error;
    const { promotions: _refused, ...rest } = consent;
    const { consent_collection: _all, ...others } = params;
    return stripe.checkout.sessions.create(
      Object.keys(rest).length > 0 ? { ...others, consent_collection: rest } : others,
      options,
    );
  }
}

/** The store's recovery emails are on (profiles.checkout_recovery_emails, the seller's switch). */
async function sendsRecoveryEmails(db: CheckoutDeps["db"], sellerId: string): Promise<boolean> {
  const row = await db
    .selectFrom("profiles")
    .select("checkout_recovery_emails")
    .where("id", "=", sellerId)
    .executeTakeFirst();
  return row?.checkout_recovery_emails ?? false;
}
