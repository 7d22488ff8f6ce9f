import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import {
  operatorReportSchema,
  operatorReportsPageSchema,
  type ReportAnswerInput,
  type ReportStatus,
  type ReportStatusChange,
  sellerReportSchema,
  sellerReportsPageSchema,
} from "../../../contracts/reports";
import { api } from "../../lib/api";

/** The queue's filter: a status, every report (""), or the reports ready to restore. */
export type QueueFilter = ReportStatus | "" | "ready";

const operatorKeys = {
  all: ["operator", "reports"] as const,
  queue: (filter: QueueFilter, page: number) => [...operatorKeys.all, "queue", filter, page] as const,
  report: (id: string) => [...operatorKeys.all, "report", id] as const,
};
const sellerKeys = {
  all: (userId: string) => ["seller-reports", userId] as const,
  report: (userId: string, id: string) => [...sellerKeys.all(userId), id] as const,
};

/** The operator's queue: one page, newest first, narrowed to a status (or to those ready to restore) when chosen. */
export function useReportQueue(filter: QueueFilter, page: number) {
  return useQuery({
    queryKey: operatorKeys.queue(filter, page),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page) });
      if (filter === "ready") params.set("restore", "ready");
      else if (filter) params.set("status", filter);
      return api(`/api/operator/reports?${params}`, { schema: operatorReportsPageSchema, signal });
    },
    placeholderData: keepPreviousData,
  });
}

export function useOperatorReport(reportId: string) {
  return useQuery({
    queryKey: operatorKeys.report(reportId),
    queryFn: ({ signal }) =>
      api(`/api/operator/reports/${encodeURIComponent(reportId)}`, { schema: operatorReportSchema, signal }),
    retry: false,
  });
}

/** In review, dismissed or actioned: the report comes back as it now is, and its audit entries are refetched. */
export function useChangeReportStatus(reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ReportStatusChange) =>
      api(`/api/operator/reports/${encodeURIComponent(reportId)}/status`, {
        method: "POST",
        body: change,
        schema: operatorReportSchema,
      }),
    onSuccess: (report) => {
      queryClient.setQueryData(operatorKeys.report(reportId), report);
      void queryClient.invalidateQueries({ queryKey: operatorKeys.all });
      void queryClient.invalidateQueries({ queryKey: ["operator", "audit-log"] });
    },
  });
}

/** The reports about the signed-in seller's store, newest first. */
export function useSellerReports(userId: string) {
  return useInfiniteQuery({
    queryKey: sellerKeys.all(userId),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api(`/api/seller/reports?page=${pageParam}`, { schema: sellerReportsPageSchema, signal }),
    getNextPageParam: (page) => (page.hasMore ? page.page + 1 : undefined),
  });
}

export function useSellerReport(userId: string, reportId: string) {
  return useQuery({
    queryKey: sellerKeys.report(userId, reportId),
    queryFn: ({ signal }) =>
      api(`/api/seller/reports/${encodeURIComponent(reportId)}`, { schema: sellerReportSchema, signal }),
    retry: false,
  });
}

export function useAnswerReport(userId: string, reportId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (answer: ReportAnswerInput) =>
      api(`/api/seller/reports/${encodeURIComponent(reportId)}/answer`, {
        method: "POST",
        body: answer,
        schema: sellerReportSchema,
      }),
    onSuccess: (report) => {
      queryClient.setQueryData(sellerKeys.report(userId, reportId), report);
      void queryClient.invalidateQueries({ queryKey: sellerKeys.all(userId) });
    },
  });
}
