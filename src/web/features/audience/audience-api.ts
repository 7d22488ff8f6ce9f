import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import {
  AUDIENCE_LIMITS,
  type Broadcast,
  type BroadcastDraft,
  type BroadcastPreview,
  broadcastListSchema,
  broadcastPreviewSchema,
  broadcastSchema,
  customersPageSchema,
  productUpdateStatusSchema,
} from "../../../contracts/audience";
import { sellerProductListSchema } from "../../../contracts/products";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import { productKeys } from "../products/products-api";

export const audienceKeys = {
  /** Under the sales key: a sale or refund (the realtime `sales.changed`) changes customers and audiences. */
  customers: (userId: string, search: string) => [...sellerKeys.sales(userId), "customers", search] as const,
  broadcasts: (userId: string) => [...sellerKeys.sales(userId), "broadcasts"] as const,
  productUpdate: (userId: string, productId: string) =>
    [...sellerKeys.sales(userId), "product-update", productId] as const,
  products: (userId: string) => [...productKeys.seller(userId), "for-emails"] as const,
};

/** The customers table, most recent buyer first, one server page at a time; `search` filters by email. */
export function useCustomers(userId: string, search: string) {
  return useInfiniteQuery({
    queryKey: audienceKeys.customers(userId, search),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(AUDIENCE_LIMITS.customersPageSize) });
      if (search) params.set("q", search);
      if (pageParam) params.set("before", pageParam);
      return api(`/api/customers?${params}`, { schema: customersPageSchema, signal });
    },
    getNextPageParam: (page) => page.nextCursor,
    // While a new search loads, the last results stay on screen instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

/** The sent list; asked again every 2 s while an email is still being queued. */
export function useBroadcasts(userId: string) {
  return useQuery({
    queryKey: audienceKeys.broadcasts(userId),
    queryFn: ({ signal }) => api("/api/broadcasts", { schema: broadcastListSchema, signal }),
    refetchInterval: (query) =>
      query.state.data?.broadcasts.some((broadcast) => broadcast.status === "sending") ? 2000 : false,
  });
}

/** The products an email can go to the buyers of. */
export function useEmailProducts(userId: string) {
  return useQuery({
    queryKey: audienceKeys.products(userId),
    queryFn: ({ signal }) => api("/api/products?limit=100", { schema: sellerProductListSchema, signal }),
  });
}

export function usePreviewBroadcast() {
  return useMutation({
    mutationFn: (draft: BroadcastDraft): Promise<BroadcastPreview> =>
      api("/api/broadcasts/preview", { method: "POST", body: draft, schema: broadcastPreviewSchema }),
  });
}

export function useSendBroadcast(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: BroadcastDraft): Promise<Broadcast> =>
      api("/api/broadcasts", { method: "POST", body: draft, schema: broadcastSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sellerKeys.sales(userId) }),
  });
}

/** How many buyers a product's update email reaches, and whether one can go now. */
export function useProductUpdateStatus(userId: string, productId: string) {
  return useQuery({
    queryKey: audienceKeys.productUpdate(userId, productId),
    queryFn: ({ signal }) =>
      api(`/api/products/${encodeURIComponent(productId)}/update-email`, {
        schema: productUpdateStatusSchema,
        signal,
      }),
  });
}
