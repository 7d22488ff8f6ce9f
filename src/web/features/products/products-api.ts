import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  type CreateProductInput,
  PRODUCT_LIMITS,
  type SellerProduct,
  sellerProductListSchema,
  sellerProductSchema,
} from "../../../contracts/products";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

export const productKeys = {
  /** The seller's products and everything counted from them (the dashboard stats). */
  seller: (userId: string) => [...sellerKeys.all(userId), "products"] as const,
  recent: (userId: string) => [...sellerKeys.all(userId), "products", "recent"] as const,
};

/** The public link of a product, the one a seller shares. */
export function productUrl(origin: string, productId: string): string {
  return `${origin}/product/${productId}`;
}

export function useRecentProducts(userId: string) {
  return useQuery({
    queryKey: productKeys.recent(userId),
    queryFn: ({ signal }) =>
      api(`/api/products?limit=${PRODUCT_LIMITS.recentProducts}`, {
        schema: sellerProductListSchema,
        signal,
      }),
  });
}

export function createProduct(input: CreateProductInput): Promise<SellerProduct> {
  return api("/api/products", { method: "POST", body: input, schema: sellerProductSchema });
}

export function useDeleteProduct(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (productId: string) =>
      api(`/api/products/${encodeURIComponent(productId)}`, { method: "DELETE", schema: z.unknown() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerKeys.all(userId) }),
  });
}
