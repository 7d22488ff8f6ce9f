import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { type InvoiceKind, invoicesPageSchema } from "../../../contracts/invoices";
import { api } from "../../lib/api";

export interface InvoiceFilter {
  from: string;
  to: string;
  kind: InvoiceKind | "";
}

const searchOf = (filter: Pick<InvoiceFilter, "from" | "to"> & { kind?: InvoiceFilter["kind"] }) => {
  const params = new URLSearchParams();
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (filter.kind) params.set("kind", filter.kind);
  return params;
};

/** The seller's invoices and credit notes in a period, newest first, one server page at a time. */
export function useInvoices(userId: string, filter: InvoiceFilter) {
  return useInfiniteQuery({
    queryKey: ["invoices", userId, filter.from, filter.to, filter.kind],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = searchOf(filter);
      if (pageParam) params.set("cursor", pageParam);
      return api(`/api/invoices?${params}`, { schema: invoicesPageSchema, signal });
    },
    getNextPageParam: (page) => page.nextCursor,
    placeholderData: keepPreviousData,
  });
}

/** The period's ZIP: a plain link the browser downloads with the session cookie. */
export const exportZipUrl = (filter: Pick<InvoiceFilter, "from" | "to">) =>
  `/api/invoices/export.zip?${searchOf(filter)}`;
