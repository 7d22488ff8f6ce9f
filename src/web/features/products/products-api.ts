import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  type CreateProductInput,
  PRODUCT_LIMITS,
  type SellerProduct,
  type SellerProductDetail,
  sellerProductDetailSchema,
  sellerProductListSchema,
  sellerProductSchema,
  type UpdateProductInput,
} from "../../../contracts/products";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

export const productKeys = {
  /** The seller's products and everything counted from them (the dashboard stats). */
  seller: (userId: string) => [...sellerKeys.all(userId), "products"] as const,
  recent: (userId: string) => [...sellerKeys.all(userId), "products", "recent"] as const,
  detail: (userId: string, productId: string) =>
    [...sellerKeys.all(userId), "products", "detail", productId] as const,
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

/** One of the seller's products, for its edit page (with the units taken from a limited stock). */
export function useSellerProduct(userId: string, productId: string) {
  return useQuery({
    queryKey: productKeys.detail(userId, productId),
    queryFn: ({ signal }) =>
      api(`/api/products/${encodeURIComponent(productId)}`, {
        schema: sellerProductDetailSchema,
        signal,
      }),
  });
}

export function updateProduct(productId: string, input: UpdateProductInput): Promise<SellerProductDetail> {
  return api(`/api/products/${encodeURIComponent(productId)}`, {
    method: "PATCH",
    body: input,
    schema: sellerProductDetailSchema,
  });
}

export function useDeleteProduct(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (productId: string) =>
      api(`/api/products/${encodeURIComponent(productId)}`, { method: "DELETE", schema: z.unknown() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerKeys.all(userId) }),
  });
}
