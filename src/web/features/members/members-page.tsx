import { useMutation } from "@tanstack/react-query";
import { BadgeCheck, FileDown, PackagePlus, Search } from "lucide-react";
import { useDeferredValue, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { LoadMoreButton } from "../../components/load-more-button";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { isAlreadyReported } from "../../lib/already-reported";
import { useMediaQuery } from "../../lib/use-media-query";
import { useSettledSearch } from "../../lib/use-settled-search";
import { browserExportDeps } from "../sales/export-csv";
import { SellerGate } from "../seller/seller-gate";
import { useMemberActions } from "./member-actions";
import {
  isStatusFilter,
  MEMBERS_COPY,
  type MemberStatusFilter,
  STATUS_FILTER_OPTIONS,
} from "./member-format";
import {
  exportMembersCsv,
  MEMBER_SEARCH_MAX_LENGTH,
  type MemberFilter,
  useMembers,
  useMembershipProducts,
} from "./members-api";
import { MemberCards, MembersTable } from "./members-list";

const SELECT_CLASS =
  "h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-sm text-ink shadow-sm outline-none focus-visible:border-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500/30";

/** The server writes the file (the page's filters, dates in the browser's time zone); the browser saves it. */
function useExportMembers(filter: MemberFilter) {
  const { mutate, isPending } = useMutation({
    mutationFn: () =>
      exportMembersCsv(filter, Intl.DateTimeFormat().resolvedOptions().timeZone, browserExportDeps),
    onSuccess: () => toast.success("Export successful", { description: MEMBERS_COPY.exported }),
    onError: (error) => {
      if (!isAlreadyReported(error)) toast.error("Export failed", { description: error.message });
    },
  });
  return { exportCsv: () => mutate(), isExporting: isPending };
}

function NoMembers({ filtered }: { filtered: boolean }) {
  return (
    <div className="flex flex-col items-center gap-2 border-t border-line px-6 py-12 text-center">
      <BadgeCheck aria-hidden="true" className="size-8 text-muted" />
      <p className="font-medium text-ink">{filtered ? MEMBERS_COPY.noMatches : MEMBERS_COPY.noMembers}</p>
      {!filtered && (
        <>
          <p className="max-w-md text-sm text-muted">{MEMBERS_COPY.noMembersHint}</p>
          <Button asChild variant="secondary" size="sm" className="mt-2">
            <Link to="/new">
              <PackagePlus aria-hidden="true" />
              Create a membership product
            </Link>
          </Button>
        </>
      )}
    </div>
  );
}

function Filters({
  userId,
  typed,
  onType,
  status,
  onStatus,
  productId,
  onProduct,
}: {
  userId: string;
  typed: string;
  onType: (value: string) => void;
  status: MemberStatusFilter;
  onStatus: (value: MemberStatusFilter) => void;
  productId: string | null;
  onProduct: (value: string | null) => void;
}) {
  const products = useMembershipProducts(userId).data ?? [];
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:flex lg:items-end">
      <div className="space-y-1.5 sm:col-span-2 lg:w-72">
        <Label htmlFor="member-search">Search by email</Label>
        <div className="relative">
          <Search aria-hidden="true" className="absolute top-3 left-3 size-4 text-muted" />
          <Input
            id="member-search"
            type="search"
            className="pl-9"
            value={typed}
            maxLength={MEMBER_SEARCH_MAX_LENGTH}
            placeholder="name@example.com"
            onChange={(event) => onType(event.target.value)}
          />
        </div>
      </div>
      <div className="min-w-0 space-y-1.5 lg:w-52">
        <Label htmlFor="member-status">Status</Label>
        <select
          id="member-status"
          className={SELECT_CLASS}
          value={status}
          onChange={(event) => {
            if (isStatusFilter(event.target.value)) onStatus(event.target.value);
          }}
        >
          {STATUS_FILTER_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {products.length > 1 && (
        <div className="min-w-0 space-y-1.5 lg:w-52">
          <Label htmlFor="member-product">Product</Label>
          <select
            id="member-product"
            className={SELECT_CLASS}
            value={productId ?? ""}
            onChange={(event) => onProduct(event.target.value || null)}
          >
            <option value="">All products</option>
            {products.map((product) => (
              <option key={product.id} value={product.id}>
                {product.title}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

function Members({ userId }: { userId: string }) {
  const [typed, setTyped] = useState("");
  const [status, setStatus] = useState<MemberStatusFilter>("all");
  const [productId, setProductId] = useState<string | null>(null);
  const search = useDeferredValue(useSettledSearch(typed));
  const filter: MemberFilter = { search, status, productId };
  const filtered = search !== "" || status !== "all" || productId !== null;
  const { data, error, isPending, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } = useMembers(
    userId,
    filter,
  );
  const { exportCsv, isExporting } = useExportMembers(filter);
  const { handlers, dialogs } = useMemberActions(userId);
  const wide = useMediaQuery("(min-width: 1024px)");
  const members = data?.pages.flatMap((page) => page.members) ?? [];
  const List = wide ? MembersTable : MemberCards;
  // No member at all yet: the empty state explains, and there is nothing to search or filter.
  const none = !isPending && !error && !filtered && members.length === 0;
  const showFilters = !isPending && !none;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight text-ink">{MEMBERS_COPY.title}</h1>
          <p className="mt-1 text-sm text-muted">{MEMBERS_COPY.intro}</p>
        </div>
        <Button variant="secondary" onClick={exportCsv} disabled={isExporting || members.length === 0}>
          <FileDown aria-hidden="true" />
          {isExporting ? "Exporting..." : "Export CSV"}
        </Button>
      </div>

      <Card role="region" aria-label="Member list">
        <CardHeader className="gap-4 pb-4">
          <div className="space-y-1.5">
            <CardTitle>{filtered ? "Matching members" : "All members"}</CardTitle>
            {/* Always there, so a screen reader hears the count change as the filters change. */}
            <CardDescription aria-live="polite">
              {members.length > 0
                ? `${members.length} shown, newest first`
                : filtered && !isPending
                  ? "Try another search or filter."
                  : ""}
            </CardDescription>
          </div>
          {showFilters && (
            <Filters
              userId={userId}
              typed={typed}
              onType={setTyped}
              status={status}
              onStatus={setStatus}
              productId={productId}
              onProduct={setProductId}
            />
          )}
        </CardHeader>
        {isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading members" />
          </div>
        ) : error && members.length === 0 ? (
          <RetryNotice className="m-6" message={MEMBERS_COPY.loadFailed} onRetry={() => void refetch()} />
        ) : members.length === 0 ? (
          <NoMembers filtered={filtered} />
        ) : (
          <>
            <List members={members} handlers={handlers} />
            {hasNextPage && (
              <LoadMoreButton onLoadMore={() => void fetchNextPage()} loading={isFetchingNextPage} />
            )}
          </>
        )}
      </Card>
      {dialogs}
    </div>
  );
}

/** /dashboard/members: everyone subscribed to the seller's memberships, behind the dashboard's gates. */
export function MembersPage() {
  return <SellerGate>{({ user }) => <Members userId={user.id} />}</SellerGate>;
}
