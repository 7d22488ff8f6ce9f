import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { SALES_PAGE_SIZE, salesPageSchema } from "../../../contracts/orders";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

/** The Customer Sales table, newest first, one server page at a time. */
export function useSales(userId: string) {
  return useInfiniteQuery({
    queryKey: sellerKeys.sales(userId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(SALES_PAGE_SIZE) });
      if (pageParam) params.set("before", pageParam);
      // The page shows its own 'Error loading sales data' toast; the client only logs.
      return api(`/api/orders?${params}`, { schema: salesPageSchema, signal, quiet: true });
    },
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** A sale changed: the table and the Units Sold / Total Revenue cards. */
function useRefreshSales(userId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: sellerKeys.sales(userId) }),
      queryClient.invalidateQueries({ queryKey: sellerKeys.stats(userId) }),
    ]);
}

const orderAction = (orderId: string, action: "refund" | "reset-downloads") =>
  api(`/api/orders/${encodeURIComponent(orderId)}/${action}`, { method: "POST", schema: z.unknown() });

/** Refunds the order in full through Stripe; its download stops working at once. */
export function useRefundOrder(userId: string) {
  const refresh = useRefreshSales(userId);
  return useMutation({ mutationFn: (orderId: string) => orderAction(orderId, "refund"), onSettled: refresh });
}

/** Gives the buyer their 3 downloads back. */
export function useResetDownloads(userId: string) {
  const refresh = useRefreshSales(userId);
  return useMutation({
    mutationFn: (orderId: string) => orderAction(orderId, "reset-downloads"),
    onSettled: refresh,
  });
}
