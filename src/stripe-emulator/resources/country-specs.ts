import { z } from "zod";
import type { ApiRoutes } from "../api.js";
import { isKnownCurrency, PRESENTMENT_CURRENCIES } from "../currencies.js";
import type { Emulator } from "../emulator.js";
import { invalidRequest, resourceMissing } from "../errors.js";
import { paginate } from "../lists.js";
import {
  buildCountrySpec,
  defaultCurrencyOf,
  hasCountrySpec,
  SPEC_COUNTRIES,
  supportedPaymentCurrencies,
} from "../objects/country-spec.js";
import { listParams, parseParams } from "../params.js";
import type { Scope } from "../state/types.js";

export function registerCountrySpecs(routes: ApiRoutes): void {
  routes.get("/v1/country_specs/:id", ({ id }) => {
    const country = id.toUpperCase();
    if (!hasCountrySpec(country)) throw resourceMissing("country_spec", id);
    return buildCountrySpec(country);
  });

  routes.get("/v1/country_specs", ({ params }) => {
    const input = parseParams(z.strictObject(listParams), params);
    return paginate(SPEC_COUNTRIES.map(buildCountrySpec), input, "/v1/country_specs", "country_spec");
  });
}

/** The country of the platform (`null`) or of a connected account. */
export function accountCountry(emulator: Emulator, account: Scope): string {
  const object = account ? emulator.store.state.accounts[account] : emulator.store.state.platformAccount;
  return object?.country ?? "US";
}

/** The currency the account's balance is kept in, which charges in other currencies are converted to. */
export function settlementCurrency(emulator: Emulator, account: Scope): string {
  const object = account ? emulator.store.state.accounts[account] : emulator.store.state.platformAccount;
  return object?.default_currency ?? defaultCurrencyOf(accountCountry(emulator, account));
}

/** Whether the account can charge in `currency` (its country spec's `supported_payment_currencies`). */
export function accountSupportsCurrency(emulator: Emulator, account: Scope, currency: string): boolean {
  return supportedPaymentCurrencies(accountCountry(emulator, account)).includes(currency);
}

/**
 * Refuses a currency Stripe does not know, or one the account's country cannot charge in, with Stripe's
 * words ("Invalid currency: irr. Stripe currently supports these currencies: usd, aed, …").
 */
export function requireSupportedCurrency(
  emulator: Emulator,
  account: Scope,
  currency: string,
  param: string,
): void {
  if (!isKnownCurrency(currency)) {
    throw invalidRequest(
      `Invalid currency: ${currency}. Stripe currently supports these currencies: ${PRESENTMENT_CURRENCIES.join(", ")}`,
      param,
    );
  }
  const country = accountCountry(emulator, account);
  const supported = supportedPaymentCurrencies(country);
  if (!supported.includes(currency)) {
    throw invalidRequest(
      `Invalid currency: ${currency}. Stripe accounts in ${country} do not support ${currency}. Your account currently supports these currencies: ${supported.join(", ")}`,
      param,
    );
  }
}
