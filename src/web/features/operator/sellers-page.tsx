import { Search } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { LoadMoreButton } from "../../components/load-more-button";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { formatSaleDate } from "../sales/sale-format";
import { useSellerSearch } from "./enforcement-api";
import { OperatorGate } from "./operator-gate";
import { StateBadge } from "./state-badge";

function SellerList({ q }: { q: string }) {
  const search = useSellerSearch(q);
  if (search.isPending) return <Spinner label="Searching sellers" />;
  if (search.isError)
    return <RetryNotice message="Couldn't search the sellers." onRetry={() => void search.refetch()} />;
  const sellers = search.data.pages.flatMap((page) => page.sellers);
  if (sellers.length === 0) return <p className="px-6 py-8 text-sm text-muted">No seller matches.</p>;
  return (
    <>
      <ul className="divide-y divide-line" aria-label="Sellers">
        {sellers.map((seller) => (
          <li key={seller.id}>
            <Link
              to={`/operator/sellers/${encodeURIComponent(seller.id)}`}
              className="grid gap-1 px-6 py-3 text-sm hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-none sm:grid-cols-[1fr_auto]"
            >
              <span className="min-w-0">
                <span className="block truncate font-medium text-ink">
                  {seller.storeName ?? "No store name"}
                </span>
                <span className="block truncate text-muted">{seller.email}</span>
              </span>
              <span className="flex flex-wrap items-center gap-2 sm:justify-end">
                <StateBadge state={seller.state} />
                <Badge tone={seller.planStatus === "active" ? "success" : "neutral"}>
                  {seller.planStatus ?? "no plan"}
                </Badge>
                <span className="text-xs text-muted">Joined {formatSaleDate(seller.createdAt)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {search.hasNextPage && (
        <LoadMoreButton onLoadMore={() => void search.fetchNextPage()} loading={search.isFetchingNextPage} />
      )}
    </>
  );
}

/** /operator/sellers: search by the start of an email or store name, or an exact id. */
export function SellersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const [typed, setTyped] = useState(q);
  return (
    <OperatorGate>
      <h1 className="text-2xl font-bold tracking-tight text-ink">Sellers</h1>
      <p className="mt-1 text-sm text-muted">
        Newest first. Search by the start of an email or store name, or an id.
      </p>
      <form
        className="mt-6 flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setParams(typed.trim() ? { q: typed.trim() } : {});
        }}
      >
        <label htmlFor="seller-search" className="sr-only">
          Email, store name or id
        </label>
        <Input
          id="seller-search"
          type="search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="Email, store name or id"
          className="h-10 flex-1"
          maxLength={200}
        />
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>
      <Card className="mt-6 overflow-hidden">
        <SellerList q={q} />
      </Card>
    </OperatorGate>
  );
}
