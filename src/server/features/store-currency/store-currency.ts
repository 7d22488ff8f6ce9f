import type Stripe from "stripe";
import {
  CURRENCY_MESSAGES,
  currencyName,
  STORE_CURRENCIES,
  type StoreCurrencyInput,
  type StoreCurrencySettings,
} from "../../../contracts/currencies";
import { commitChange } from "../../adapters/events/commit-change";
import { type EventBus, PUBLIC_PAGES_CHANGED } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";

/**
 * The store currency (docs/money.md): what a store sells and counts in, chosen before its first sale
 * (then fixed, as every total adds up in it), among the currencies the seller's Stripe account takes
 * (its country's spec, asked of Stripe). Fixed prices in other currencies and Adaptive Pricing settle
 * through Stripe's conversion into the account's default currency, so they need the store currency to
 * be that one: an order's settled amount is then always in the store currency.
 */

export interface StoreCurrencyDeps {
  db: Database;
  stripe: Stripe;
  events: EventBus;
  now: () => Date;
}

/** What the seller's Stripe account takes and pays out in. */
interface AccountCurrencies {
  accepted: ReadonlySet<string>;
  settlement: string;
}

/** Country specs change with Stripe's coverage, not per request: kept an hour, per country. */
const SPEC_TTL_MS = 60 * 60_000;
const specs = new Map<string, { at: number; accepted: ReadonlySet<string> }>();

async function acceptedIn(stripe: Stripe, country: string, now: Date): Promise<ReadonlySet<string>> {
  const kept = specs.get(country);
  if (kept && now.getTime() - kept.at < SPEC_TTL_MS) return kept.accepted;
  const spec = await stripe.countrySpecs.retrieve(country);
  const accepted = new Set(spec.supported_payment_currencies);
  specs.set(country, { at: now.getTime(), accepted });
  return accepted;
}

/** The connected account's currencies, or undefined before the seller connected Stripe. */
async function accountCurrencies(
  deps: Pick<StoreCurrencyDeps, "db" | "stripe">,
  sellerId: string,
  now: Date,
): Promise<AccountCurrencies | undefined> {
  const profile = await deps.db
    .selectFrom("profiles")
    .select("stripe_connect_account_id")
    .where("id", "=", sellerId)
    .executeTakeFirst();
  if (!profile?.stripe_connect_account_id) return undefined;
  const account = await deps.stripe.accounts.retrieve(profile.stripe_connect_account_id);
  const country = account.country ?? "US";
  return {
    accepted: await acceptedIn(deps.stripe, country, now),
    settlement: account.default_currency ?? "usd",
  };
}

/** The store's currency and whether Checkout may convert for buyers (Adaptive Pricing). */
export async function storeCurrencyOf(
  db: Database,
  sellerId: string,
): Promise<{ currency: string; adaptivePricing: boolean }> {
  const row = await db
    .selectFrom("profiles")
    .select(["store_currency", "adaptive_pricing"])
    .where("id", "=", sellerId)
    .executeTakeFirst();
  return { currency: row?.store_currency ?? "usd", adaptivePricing: row?.adaptive_pricing ?? false };
}

/**
 * Whether a checkout in `currency` asks Stripe for Adaptive Pricing (docs/money.md): when the seller
 * turned it on and the buyer pays the store currency's price, which Stripe then converts for them. A
 * fixed price in the buyer's currency needs no conversion. The one rule for Buy Now and Subscribe.
 */
export async function adaptivePricingFor(db: Database, sellerId: string, currency: string): Promise<boolean> {
  const store = await storeCurrencyOf(db, sellerId);
  return store.adaptivePricing && store.currency === currency;
}

/** A sale fixes the currency: a paid order or a membership (free claims sell nothing). */
async function hasSales(db: Database, sellerId: string): Promise<boolean> {
  const sale = await db
    .selectFrom("orders")
    .select("id")
    .where("seller_id", "=", sellerId)
    .where("amount_cents", ">", 0)
    .limit(1)
    .executeTakeFirst();
  return sale !== undefined;
}

/**
 * Checked again under the profile's row lock, in the change's transaction: a sale that completed since
 * the first check, or a buyer in Checkout now (whose order would settle in the old currency), keeps the
 * currency where it is.
 */
async function assertCurrencyStillFree(trx: Database, sellerId: string, now: Date): Promise<void> {
  await trx.selectFrom("profiles").select("id").where("id", "=", sellerId).forUpdate().executeTakeFirst();
  if (await hasSales(trx, sellerId)) throw new AppError("currency_locked", 409, CURRENCY_MESSAGES.locked);
  const paying = await trx
    .selectFrom("checkouts")
    .select("id")
    .where("seller_id", "=", sellerId)
    .where("state", "=", "open")
    .where("expires_at", ">", now)
    .limit(1)
    .executeTakeFirst();
  if (paying) throw new AppError("currency_locked", 409, CURRENCY_MESSAGES.checkoutOpen);
}

/**
 * Prices in `currencies` (other than the store's) may be offered: the seller's account takes each, and
 * pays out in the store currency (so Stripe's conversion settles them in it). Refused with its reason.
 */
export async function assertOtherCurrenciesAccepted(
  deps: Pick<StoreCurrencyDeps, "db" | "stripe">,
  sellerId: string,
  currencies: readonly string[],
  now: Date,
  /** The form field the refusal is about: a product's `prices`, or the `tiers` a tier's prices are part of. */
  field: "prices" | "tiers" = "prices",
): Promise<void> {
  if (currencies.length === 0) return;
  const { currency: store } = await storeCurrencyOf(deps.db, sellerId);
  const account = await accountCurrencies(deps, sellerId, now);
  const refused = currencies.find((currency) => !account?.accepted.has(currency));
  if (refused) {
    throw new AppError("currency_not_supported", 422, CURRENCY_MESSAGES.unsupported(refused), { field });
  }
  if (account && account.settlement !== store) {
    throw new AppError(
      "currency_not_settled",
      422,
      CURRENCY_MESSAGES.otherPricesNeedSettlement(account.settlement),
      { field },
    );
  }
}

export async function getStoreCurrencySettings(
  deps: Pick<StoreCurrencyDeps, "db" | "stripe">,
  sellerId: string,
  now: Date,
): Promise<StoreCurrencySettings> {
  const [{ currency, adaptivePricing }, account, locked] = await Promise.all([
    storeCurrencyOf(deps.db, sellerId),
    accountCurrencies(deps, sellerId, now),
    hasSales(deps.db, sellerId),
  ]);
  const codes = new Set<string>([...STORE_CURRENCIES, currency]);
  for (const code of account?.accepted ?? []) codes.add(code);
  const choices = [...codes]
    .filter((code) => !account || account.accepted.has(code))
    .map((code) => ({ code, name: currencyName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
  return { currency, locked, choices, adaptivePricing, settlementCurrency: account?.settlement ?? null };
}

/**
 * The seller picks the store currency (before the first sale, among what their account takes, or the
 * usual nine before they connected Stripe) and turns Adaptive Pricing on or off (which needs the store
 * currency to be the one Stripe pays out in). A product's fixed price in the new store currency is
 * dropped (a tier's too): its store price now says it. Public pages hear of it; nothing changes on a refusal.
 */
export async function updateStoreCurrency(
  deps: StoreCurrencyDeps,
  sellerId: string,
  input: StoreCurrencyInput,
): Promise<StoreCurrencySettings> {
  const now = deps.now();
  const current = await storeCurrencyOf(deps.db, sellerId);
  const currency = input.currency ?? current.currency;
  const adaptivePricing = input.adaptivePricing ?? current.adaptivePricing;
  const account = await accountCurrencies(deps, sellerId, now);
  if (currency !== current.currency) {
    if (await hasSales(deps.db, sellerId))
      throw new AppError("currency_locked", 409, CURRENCY_MESSAGES.locked);
    const allowed = account
      ? account.accepted.has(currency)
      : (STORE_CURRENCIES as readonly string[]).includes(currency);
    if (!allowed) {
      throw new AppError("currency_not_supported", 422, CURRENCY_MESSAGES.unsupported(currency), {
        field: "currency",
      });
    }
  }
  const others =
    (await deps.db
      .selectFrom("product_prices")
      .select("currency")
      .where("seller_id", "=", sellerId)
      .where("currency", "!=", currency)
      .limit(1)
      .executeTakeFirst()) ??
    (await deps.db
      .selectFrom("membership_tier_currency_prices")
      .select("currency")
      .where("seller_id", "=", sellerId)
      .where("currency", "!=", currency)
      .limit(1)
      .executeTakeFirst());
  if ((adaptivePricing || others) && account && account.settlement !== currency) {
    throw new AppError(
      "currency_not_settled",
      422,
      CURRENCY_MESSAGES.otherPricesNeedSettlement(account.settlement),
      { field: adaptivePricing ? "adaptivePricing" : "currency" },
    );
  }
  await commitChange(deps, async (trx, announce) => {
    if (currency !== current.currency) await assertCurrencyStillFree(trx, sellerId, now);
    await trx
      .updateTable("profiles")
      .set({ store_currency: currency, adaptive_pricing: adaptivePricing, updated_at: now })
      .where("id", "=", sellerId)
      .execute();
    await trx
      .deleteFrom("product_prices")
      .where("seller_id", "=", sellerId)
      .where("currency", "=", currency)
      .execute();
    await trx
      .deleteFrom("membership_tier_currency_prices")
      .where("seller_id", "=", sellerId)
      .where("currency", "=", currency)
      .execute();
    announce(sellerId, PUBLIC_PAGES_CHANGED);
  });
  return getStoreCurrencySettings(deps, sellerId, now);
}
