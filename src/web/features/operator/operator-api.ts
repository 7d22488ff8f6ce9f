import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { auditLogPageSchema, operatorMeSchema } from "../../../contracts/operator";
import { api } from "../../lib/api";

/** Who the console is open to: answers 404 to anyone but an operator, 403 without two-factor. */
export function useOperator() {
  return useQuery({
    queryKey: ["operator", "me"],
    queryFn: ({ signal }) => api("/api/operator/me", { schema: operatorMeSchema, signal }),
    retry: false,
  });
}

/** The audit log, newest first, narrowed to a seller or a report when asked. */
export function useAuditLog(filter: { sellerId?: string; reportId?: string } = {}) {
  return useInfiniteQuery({
    queryKey: ["operator", "audit-log", filter.sellerId ?? "", filter.reportId ?? ""],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (filter.sellerId) params.set("sellerId", filter.sellerId);
      if (filter.reportId) params.set("reportId", filter.reportId);
      if (pageParam) params.set("before", String(pageParam));
      return api(`/api/operator/audit-log?${params}`, { schema: auditLogPageSchema, signal });
    },
    getNextPageParam: (page) => page.nextBefore,
    placeholderData: keepPreviousData,
  });
}
