import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  DISCOUNT_LIMITS,
  type DiscountCode,
  type DiscountCodeFields,
  type DiscountCodeUpdate,
  discountCodeListSchema,
  discountCodeSchema,
} from "../../../contracts/discounts";
import { sellerProductListSchema } from "../../../contracts/products";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import { productKeys } from "../products/products-api";

export const discountKeys = {
  /** Under the sales key: a sale (the realtime `sales.changed`) changes a code's uses and revenue. */
  codes: (userId: string) => [...sellerKeys.sales(userId), "discount-codes"] as const,
  /** The products a code can be limited to; under the products key, so a new product shows up. */
  products: (userId: string) => [...productKeys.seller(userId), "for-discount-codes"] as const,
};

export function useDiscountCodes(userId: string) {
  return useQuery({
    queryKey: discountKeys.codes(userId),
    queryFn: ({ signal }) => api("/api/discount-codes", { schema: discountCodeListSchema, signal }),
  });
}

/** The seller's products (as many as a code can name), to choose from and to copy offer links of. */
export function useCodeProducts(userId: string) {
  return useQuery({
    queryKey: discountKeys.products(userId),
    queryFn: ({ signal }) =>
      api(`/api/products?limit=${DISCOUNT_LIMITS.maxChosenProducts}`, {
        schema: sellerProductListSchema,
        signal,
      }),
  });
}

function useRefreshCodes(userId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: discountKeys.codes(userId) });
}

/** Creates a code, or saves the one being edited. */
export function useSaveDiscountCode(userId: string) {
  const refresh = useRefreshCodes(userId);
  return useMutation({
    mutationFn: ({ id, fields }: { id: string | null; fields: DiscountCodeFields }): Promise<DiscountCode> =>
      id
        ? api(`/api/discount-codes/${encodeURIComponent(id)}`, {
            method: "PATCH",
            body: fields,
            schema: discountCodeSchema,
          })
        : api("/api/discount-codes", { method: "POST", body: fields, schema: discountCodeSchema }),
    onSuccess: refresh,
  });
}

export function usePauseDiscountCode(userId: string) {
  const refresh = useRefreshCodes(userId);
  return useMutation({
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) =>
      api(`/api/discount-codes/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: { paused } satisfies DiscountCodeUpdate,
        schema: discountCodeSchema,
      }),
    onSettled: refresh,
  });
}

export function useDeleteDiscountCode(userId: string) {
  const refresh = useRefreshCodes(userId);
  return useMutation({
    mutationFn: (id: string) =>
      api(`/api/discount-codes/${encodeURIComponent(id)}`, { method: "DELETE", schema: z.unknown() }),
    onSettled: refresh,
  });
}
