import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  type PostInput,
  type PostUpdate,
  postListSchema,
  postProductsSchema,
  type SellerPost,
  sellerPostSchema,
} from "../../../contracts/posts";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

export const postKeys = {
  all: (userId: string) => [...sellerKeys.all(userId), "posts"] as const,
  products: (userId: string) => [...postKeys.all(userId), "products"] as const,
  list: (userId: string, productId: string) => [...postKeys.all(userId), "list", productId] as const,
};

/** The seller's membership products, with their tiers and files to choose from. */
export function usePostProducts(userId: string) {
  return useQuery({
    queryKey: postKeys.products(userId),
    queryFn: ({ signal }) => api("/api/posts/products", { schema: postProductsSchema, signal }),
  });
}

/** One membership product's posts, newest first, drafts too. */
export function usePosts(userId: string, productId: string | null) {
  return useQuery({
    queryKey: postKeys.list(userId, productId ?? ""),
    queryFn: ({ signal }) =>
      api(`/api/posts?productId=${encodeURIComponent(productId ?? "")}`, { schema: postListSchema, signal }),
    enabled: productId !== null,
  });
}

function useRefreshPosts(userId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: postKeys.all(userId) });
}

/** Creates a post, or saves the one being edited. */
export function useSavePost(userId: string) {
  const refresh = useRefreshPosts(userId);
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: PostInput }): Promise<SellerPost> => {
      if (!id) return api("/api/posts", { method: "POST", body: input, schema: sellerPostSchema });
      const { productId: _product, ...update } = input;
      return api(`/api/posts/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: update satisfies PostUpdate,
        schema: sellerPostSchema,
      });
    },
    onSuccess: refresh,
  });
}

export function useDeletePost(userId: string) {
  const refresh = useRefreshPosts(userId);
  return useMutation({
    mutationFn: (id: string) =>
      api(`/api/posts/${encodeURIComponent(id)}`, { method: "DELETE", schema: z.unknown() }),
    onSettled: refresh,
  });
}
