import { queryOptions, useQuery } from "@tanstack/react-query";
import { type SellerStatus, sellerStatusSchema } from "../../contracts/seller";
import { api } from "./api";

/** Everything cached about one seller lives under this prefix, so another user never sees it. */
export const sellerKeys = {
  all: (userId: string) => ["seller", userId] as const,
  status: (userId: string) => ["seller", userId, "status"] as const,
  /** The dashboard's stat cards (GET /api/dashboard/stats). */
  stats: (userId: string) => ["seller", userId, "stats"] as const,
  /** Every page of the Customer Sales table. */
  sales: (userId: string) => ["seller", userId, "sales"] as const,
  tax: (userId: string) => ["seller", userId, "tax"] as const,
};

/** The seller's plan and payout account (GET /api/seller/status). */
export function sellerStatusQuery(userId: string) {
  return queryOptions({
    queryKey: sellerKeys.status(userId),
    queryFn: ({ signal }): Promise<SellerStatus> =>
      api("/api/seller/status", { schema: sellerStatusSchema, signal }),
  });
}

export function useSellerStatus(userId: string) {
  return useQuery(sellerStatusQuery(userId));
}
