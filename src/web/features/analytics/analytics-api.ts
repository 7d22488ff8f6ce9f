import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type AnalyticsPeriod, analyticsSchema } from "../../../contracts/analytics";
import { sellerProductListSchema } from "../../../contracts/products";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import { productKeys } from "../products/products-api";

/** The most products the filter offers (the products list's own limit). */
const FILTER_PRODUCTS = 100;

export const analyticsKeys = {
  /** Under the sales key: a sale or refund (the realtime `sales.changed`) refreshes the open page. */
  all: (userId: string) => [...sellerKeys.sales(userId), "analytics"] as const,
  view: (userId: string, period: AnalyticsPeriod, productId: string | null) =>
    [...sellerKeys.sales(userId), "analytics", period, productId ?? "all-products"] as const,
  products: (userId: string) => [...productKeys.seller(userId), "for-analytics"] as const,
};

export function useAnalytics(userId: string, period: AnalyticsPeriod, productId: string | null) {
  return useQuery({
    queryKey: analyticsKeys.view(userId, period, productId),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ period, ...(productId ? { productId } : {}) });
      return api(`/api/analytics?${query}`, { schema: analyticsSchema, signal });
    },
    // Changing the period or product keeps the last answer on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useAnalyticsProducts(userId: string) {
  return useQuery({
    queryKey: analyticsKeys.products(userId),
    queryFn: ({ signal }) =>
      api(`/api/products?limit=${FILTER_PRODUCTS}`, { schema: sellerProductListSchema, signal }),
  });
}
