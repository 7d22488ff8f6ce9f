import { queryOptions, useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext } from "react";
import {
  type StoreCurrencyInput,
  type StoreCurrencySettings,
  storeCurrencySettingsSchema,
} from "../../contracts/currencies";
import { formatMoney } from "../../contracts/money";
import { api } from "./api";
import { DASHBOARD_LOCALE } from "./money";
import { sellerKeys } from "./seller-status";

/**
 * The store currency in the dashboard (docs/i18n.md, "Money in the dashboard"): every price, total and
 * amount the seller sees is an integer of its minor unit. The seller gate provides it from the seller
 * status it loads for every dashboard page (GET /api/seller/status `storeCurrency`), so saving another
 * currency (which refetches the status) re-renders every amount in it.
 */

const StoreCurrencyContext = createContext<string | null>(null);

/** The store currency of what is inside (SellerGate wraps every dashboard page in it). */
export function StoreCurrencyProvider({ currency, children }: { currency: string; children: ReactNode }) {
  return <StoreCurrencyContext.Provider value={currency}>{children}</StoreCurrencyContext.Provider>;
}

/** The store currency, lowercase ("usd", "eur", "jpy"). Only inside a dashboard page (SellerGate). */
export function useStoreCurrency(): string {
  const currency = useContext(StoreCurrencyContext);
  if (currency === null) {
    throw new Error("useStoreCurrency() is used outside StoreCurrencyProvider (SellerGate provides it)");
  }
  return currency;
}

/** An amount as the dashboard writes it: in its own currency, the store currency when none is given. */
export type MoneyFormatter = (amount: number, currency?: string) => string;

/**
 * The dashboard's money formatter: `money(1999)` → "$19.99" in a dollar store, "¥1,999" in a yen store;
 * `money(1800, "eur")` → "€18.00" for an amount of another currency (a sale paid in euros).
 */
export function useMoney(): MoneyFormatter {
  const storeCurrency = useStoreCurrency();
  return useCallback(
    (amount: number, currency?: string) => formatMoney(amount, currency ?? storeCurrency, DASHBOARD_LOCALE),
    [storeCurrency],
  );
}

/** The store currency settings (GET /api/store-currency): the choices, the lock, Adaptive Pricing. */
export function storeCurrencySettingsQuery(userId: string) {
  return queryOptions({
    queryKey: [...sellerKeys.all(userId), "store-currency"] as const,
    queryFn: ({ signal }): Promise<StoreCurrencySettings> =>
      api("/api/store-currency", { schema: storeCurrencySettingsSchema, signal }),
  });
}

export function useStoreCurrencySettings(userId: string) {
  return useQuery(storeCurrencySettingsQuery(userId));
}

/** PUT /api/store-currency: what changed (the currency, Adaptive Pricing), answered with the new settings. */
export function saveStoreCurrency(input: StoreCurrencyInput): Promise<StoreCurrencySettings> {
  return api("/api/store-currency", { method: "PUT", body: input, schema: storeCurrencySettingsSchema });
}
