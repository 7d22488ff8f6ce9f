import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { apiErrorSchema } from "../../../contracts/errors";
import {
  type Member,
  type MembersPage,
  memberSchema,
  membersCsvFileName,
  membersPageSchema,
} from "../../../contracts/memberships";
import { sellerProductListSchema } from "../../../contracts/products";
import { ApiError, api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";
import { productKeys } from "../products/products-api";
import { type browserExportDeps, fileNameOf } from "../sales/export-csv";
import type { MemberActionKind, MemberStatusFilter } from "./member-format";

/** The server's page size (membersQuerySchema's default) and longest search. */
export const MEMBERS_PAGE_SIZE = 50;
export const MEMBER_SEARCH_MAX_LENGTH = 200;

export type MemberFilter = { search: string; status: MemberStatusFilter; productId: string | null };

export const memberKeys = {
  /** Under the sales key: a payment, refund or cancellation (the realtime `sales.changed`) changes members. */
  all: (userId: string) => [...sellerKeys.sales(userId), "members"] as const,
  list: (userId: string, filter: MemberFilter) => [...memberKeys.all(userId), filter] as const,
  products: (userId: string) => [...productKeys.seller(userId), "memberships"] as const,
};

/** The filters as the list and its CSV send them: only those that narrow anything. */
export function memberFilterParams(filter: MemberFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.search) params.set("q", filter.search);
  if (filter.status !== "all") params.set("status", filter.status);
  if (filter.productId) params.set("productId", filter.productId);
  return params;
}

/** The members table, newest first, one server page at a time. */
export function useMembers(userId: string, filter: MemberFilter) {
  return useInfiniteQuery({
    queryKey: memberKeys.list(userId, filter),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const params = memberFilterParams(filter);
      params.set("limit", String(MEMBERS_PAGE_SIZE));
      if (pageParam) params.set("before", pageParam);
      return api(`/api/memberships?${params}`, { schema: membersPageSchema, signal });
    },
    getNextPageParam: (page) => page.nextCursor,
    // While new filters load, the last results stay on screen instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

/** The seller's membership products, for the product filter (the products list holds every kind). */
export function useMembershipProducts(userId: string) {
  return useQuery({
    queryKey: memberKeys.products(userId),
    queryFn: ({ signal }) => api("/api/products?limit=100", { schema: sellerProductListSchema, signal }),
    select: (data) => data.products.filter((product) => product.kind === "membership"),
  });
}

/** What the seller does to a member, as the API takes it. */
export type MemberAction =
  | { type: "cancel"; when: "now" | "period_end" }
  | { type: "refund-last-payment"; endAccess: boolean };

/**
 * The request each menu choice makes. A refund ends the paid period's access only when the seller
 * ticked the box, and the box is offered only while the member has access.
 */
export function actionFor(
  kind: MemberActionKind,
  member: Pick<Member, "hasAccess">,
  endAccessTicked = false,
): MemberAction {
  switch (kind) {
    case "cancel-period-end":
      return { type: "cancel", when: "period_end" };
    case "cancel-now":
      return { type: "cancel", when: "now" };
    case "refund":
      return { type: "refund-last-payment", endAccess: member.hasAccess && endAccessTicked };
  }
}

export function memberActionRequest(
  memberId: string,
  action: MemberAction,
): { path: string; body: { when: "now" | "period_end" } | { endAccess: boolean } } {
  const base = `/api/memberships/${encodeURIComponent(memberId)}`;
  return action.type === "cancel"
    ? { path: `${base}/cancel`, body: { when: action.when } }
    : { path: `${base}/refund-last-payment`, body: { endAccess: action.endAccess } };
}

/** Sends the action; the server answers with the member as it is now. */
export function runMemberAction(memberId: string, action: MemberAction): Promise<Member> {
  const { path, body } = memberActionRequest(memberId, action);
  return api(path, { method: "POST", body, schema: memberSchema });
}

/** Every loaded page with `member` in place of its earlier self. */
export function withMember(data: InfiniteData<MembersPage>, member: Member): InfiniteData<MembersPage> {
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.members.some((each) => each.id === member.id)
        ? { ...page, members: page.members.map((each) => (each.id === member.id ? member : each)) }
        : page,
    ),
  };
}

/** Cancels or refunds; the row updates from the answer (the realtime event then refreshes the rest). */
export function useMemberAction(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, action }: { memberId: string; action: MemberAction }) =>
      runMemberAction(memberId, action),
    onSuccess: (member) => {
      queryClient.setQueriesData<InfiniteData<MembersPage>>({ queryKey: memberKeys.all(userId) }, (data) =>
        data ? withMember(data, member) : data,
      );
      // A refund changes the dashboard's revenue.
      void queryClient.invalidateQueries({ queryKey: sellerKeys.stats(userId) });
    },
  });
}

type ExportDeps = typeof browserExportDeps;

/** The CSV of the members the filters show, dates in `timeZone`; the server writes it, the browser saves it. */
export async function exportMembersCsv(
  filter: MemberFilter,
  timeZone: string,
  { fetchCsv, save, today }: ExportDeps,
): Promise<void> {
  const params = memberFilterParams(filter);
  params.set("tz", timeZone);
  const response = await fetchCsv(`/api/memberships/export.csv?${params}`);
  if (!response.ok) {
    const body = apiErrorSchema.safeParse(await response.json().catch(() => null));
    throw body.success
      ? new ApiError(response.status, body.data.code, body.data.message)
      : new ApiError(response.status, "UNKNOWN", `Export failed (${response.status})`);
  }
  const fileName =
    fileNameOf(response.headers.get("content-disposition")) ?? membersCsvFileName(today(), timeZone);
  save(await response.blob(), fileName);
}
