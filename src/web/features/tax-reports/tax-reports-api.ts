import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { taxGuideSchema, taxReportSchema } from "../../../contracts/tax-reports";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

export const taxReportKeys = {
  /** Under the sales key: a sale or refund (the realtime `sales.changed`) refreshes the open page. */
  report: (userId: string, quarter: string | null) =>
    [...sellerKeys.sales(userId), "tax-report", quarter ?? "current"] as const,
  guide: (userId: string, country: string | null) =>
    [...sellerKeys.sales(userId), "tax-guide", country ?? "stripe"] as const,
};

/** GET /api/tax/report: the quarter's rows (the current quarter when null). */
export function useTaxReport(userId: string, quarter: string | null) {
  return useQuery({
    queryKey: taxReportKeys.report(userId, quarter),
    queryFn: ({ signal }) =>
      api(`/api/tax/report${quarter ? `?quarter=${encodeURIComponent(quarter)}` : ""}`, {
        schema: taxReportSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/tax/guide: the facts for the seller's country (Stripe's, unless they chose one here). */
export function useTaxGuide(userId: string, country: string | null) {
  return useQuery({
    queryKey: taxReportKeys.guide(userId, country),
    queryFn: ({ signal }) =>
      api(`/api/tax/guide${country ? `?country=${encodeURIComponent(country)}` : ""}`, {
        schema: taxGuideSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** The CSV's address: a plain link the browser downloads with the session cookie. */
export const taxReportCsvUrl = (quarter: string) =>
  `/api/tax/report.csv?quarter=${encodeURIComponent(quarter)}`;
