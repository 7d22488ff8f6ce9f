import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import {
  type AppealAnswer,
  actionResultSchema,
  appealQueueSchema,
  operatorSellerSchema,
  type ProductActionBody,
  platformFiguresSchema,
  type SellerActionBody,
  sellerSearchPageSchema,
} from "../../../contracts/enforcement";
import { api } from "../../lib/api";

/** The console's enforcement reads and actions (docs/operator.md, "Enforcement"). */
export const enforcementKeys = {
  all: ["operator", "enforcement"] as const,
  overview: () => [...enforcementKeys.all, "overview"] as const,
  sellers: (q: string) => [...enforcementKeys.all, "sellers", q] as const,
  seller: (id: string) => [...enforcementKeys.all, "seller", id] as const,
  appeals: () => [...enforcementKeys.all, "appeals"] as const,
};

export function usePlatformFigures() {
  return useQuery({
    queryKey: enforcementKeys.overview(),
    queryFn: ({ signal }) => api("/api/operator/overview", { schema: platformFiguresSchema, signal }),
  });
}

export function useSellerSearch(q: string) {
  return useInfiniteQuery({
    queryKey: enforcementKeys.sellers(q),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (q) params.set("q", q);
      if (pageParam) params.set("after", pageParam);
      return api(`/api/operator/sellers?${params}`, { schema: sellerSearchPageSchema, signal });
    },
    getNextPageParam: (page) => page.nextAfter,
    placeholderData: keepPreviousData,
  });
}

export function useOperatorSeller(sellerId: string) {
  return useQuery({
    queryKey: enforcementKeys.seller(sellerId),
    queryFn: ({ signal }) =>
      api(`/api/operator/sellers/${encodeURIComponent(sellerId)}`, { schema: operatorSellerSchema, signal }),
  });
}

/** After any action: the console's reads and the audit log are stale. */
function useRefreshConsole() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["operator"] });
}

export type ConsoleAction =
  | { kind: "seller"; sellerId: string; body: SellerActionBody }
  | { kind: "take-down" | "reinstate-product"; productId: string; body: ProductActionBody };

export function useConsoleAction() {
  const refresh = useRefreshConsole();
  return useMutation({
    mutationFn: (action: ConsoleAction) => {
      if (action.kind === "seller") {
        return api(`/api/operator/sellers/${encodeURIComponent(action.sellerId)}/actions`, {
          method: "POST",
          body: action.body,
          schema: actionResultSchema,
        });
      }
      const verb = action.kind === "take-down" ? "take-down" : "reinstate";
      return api(`/api/operator/products/${encodeURIComponent(action.productId)}/${verb}`, {
        method: "POST",
        body: action.body,
        schema: actionResultSchema,
      });
    },
    onSettled: refresh,
  });
}

export function useAppealQueue() {
  return useQuery({
    queryKey: enforcementKeys.appeals(),
    queryFn: ({ signal }) => api("/api/operator/appeals", { schema: appealQueueSchema, signal }),
  });
}

export function useAnswerAppeal() {
  const refresh = useRefreshConsole();
  return useMutation({
    mutationFn: ({ appealId, answer }: { appealId: string; answer: AppealAnswer }) =>
      api(`/api/operator/appeals/${encodeURIComponent(appealId)}/answer`, {
        method: "POST",
        body: answer,
        schema: actionResultSchema,
      }),
    onSettled: refresh,
  });
}
