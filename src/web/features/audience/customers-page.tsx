import { useMutation } from "@tanstack/react-query";
import { FileDown, Mail, Search, Users } from "lucide-react";
import { useDeferredValue, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import {
  AUDIENCE_LIMITS,
  AUDIENCE_MESSAGES,
  type Customer,
  customersCsvFileName,
} from "../../../contracts/audience";
import { apiErrorSchema } from "../../../contracts/errors";
import { countOf } from "../../../contracts/plural";
import { LoadMoreButton } from "../../components/load-more-button";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { isAlreadyReported } from "../../lib/already-reported";
import { ApiError, monitoredFetch } from "../../lib/api";
import { useMoney } from "../../lib/store-currency";
import { useMediaQuery } from "../../lib/use-media-query";
import { useSettledSearch } from "../../lib/use-settled-search";
import { fileNameOf, saveFile } from "../sales/export-csv";
import { formatSaleDate } from "../sales/sale-format";
import { SellerGate } from "../seller/seller-gate";
import { useCustomers } from "./audience-api";

/** The server writes the file (dates in the seller's time zone); the browser saves it. */
function useExportCustomers(search: string) {
  const { mutate, isPending } = useMutation({
    mutationFn: async () => {
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const params = new URLSearchParams({ tz: timeZone });
      if (search) params.set("q", search);
      const response = await monitoredFetch(`/api/customers/export.csv?${params}`, {
        credentials: "same-origin",
      });
      if (!response.ok) {
        const body = apiErrorSchema.safeParse(await response.json().catch(() => null));
        throw body.success
          ? new ApiError(response.status, body.data.code, body.data.message)
          : new ApiError(response.status, "UNKNOWN", `Export failed (${response.status})`);
      }
      const name =
        fileNameOf(response.headers.get("content-disposition")) ?? customersCsvFileName(new Date(), timeZone);
      saveFile(await response.blob(), name);
    },
    onSuccess: () =>
      toast.success("Export successful", { description: "Your customers were saved as a CSV file." }),
    onError: (error) => {
      if (!isAlreadyReported(error)) toast.error("Export failed", { description: error.message });
    },
  });
  return { exportCsv: () => mutate(), isExporting: isPending };
}

function Products({ customer }: { customer: Customer }) {
  const list = customer.products.join(", ");
  return (
    <p className="truncate text-muted" title={list}>
      {list}
    </p>
  );
}

function Unsubscribed({ customer }: { customer: Customer }) {
  return customer.unsubscribed ? <Badge tone="neutral">Unsubscribed</Badge> : null;
}

function CustomersTable({ customers }: { customers: Customer[] }) {
  const money = useMoney();
  return (
    <table className="w-full table-fixed text-left text-sm">
      <thead className="border-y border-line bg-slate-50/70 text-xs tracking-wide text-muted uppercase">
        <tr>
          <th scope="col" className="py-2.5 pr-3 pl-6 font-medium">
            Customer / Products
          </th>
          <th scope="col" className="w-20 px-3 py-2.5 text-right font-medium">
            Orders
          </th>
          <th scope="col" className="w-28 px-3 py-2.5 text-right font-medium">
            Total spent
          </th>
          <th scope="col" className="w-40 px-3 py-2.5 font-medium">
            First purchase
          </th>
          <th scope="col" className="w-40 py-2.5 pr-6 pl-3 font-medium">
            Last purchase
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {customers.map((customer) => (
          <tr key={customer.email}>
            <td className="py-3 pr-3 pl-6">
              <div className="flex min-w-0 items-center gap-2">
                <p className="min-w-0 truncate font-medium text-ink" title={customer.email}>
                  {customer.email}
                </p>
                <Unsubscribed customer={customer} />
              </div>
              <Products customer={customer} />
            </td>
            <td className="px-3 py-3 text-right text-muted tabular-nums">{customer.ordersCount}</td>
            <td className="px-3 py-3 text-right font-medium text-ink tabular-nums">
              {money(customer.totalCents)}
            </td>
            <td className="px-3 py-3 whitespace-nowrap text-muted tabular-nums">
              {formatSaleDate(customer.firstPurchaseAt)}
            </td>
            <td className="py-3 pr-6 pl-3 whitespace-nowrap text-muted tabular-nums">
              {formatSaleDate(customer.lastPurchaseAt)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CustomerCards({ customers }: { customers: Customer[] }) {
  const money = useMoney();
  return (
    <ul className="divide-y divide-line border-t border-line">
      {customers.map((customer) => (
        <li key={customer.email} className="space-y-1 px-4 py-3 text-sm">
          <div className="flex items-baseline justify-between gap-3">
            <p className="min-w-0 truncate font-medium text-ink" title={customer.email}>
              {customer.email}
            </p>
            <p className="shrink-0 font-semibold text-ink tabular-nums">{money(customer.totalCents)}</p>
          </div>
          <Products customer={customer} />
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
            <span className="tabular-nums">{countOf(customer.ordersCount, "order")}</span>
            <span className="tabular-nums">Last {formatSaleDate(customer.lastPurchaseAt)}</span>
            <span className="tabular-nums">First {formatSaleDate(customer.firstPurchaseAt)}</span>
            <Unsubscribed customer={customer} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function Customers({ userId }: { userId: string }) {
  const [typed, setTyped] = useState("");
  const search = useDeferredValue(useSettledSearch(typed));
  const { data, error, isPending, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } = useCustomers(
    userId,
    search,
  );
  const { exportCsv, isExporting } = useExportCustomers(search);
  const wide = useMediaQuery("(min-width: 640px)");
  const customers = data?.pages.flatMap((page) => page.customers) ?? [];
  const total = data?.pages[0]?.total ?? 0;
  const List = wide ? CustomersTable : CustomerCards;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight text-ink">{AUDIENCE_MESSAGES.customersTitle}</h1>
          <p className="mt-1 text-sm text-muted">
            Everyone who bought from you, one row per email, with what they spent net of refunds.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild>
            <Link to="/dashboard/customers/email">
              <Mail aria-hidden="true" />
              Email customers
            </Link>
          </Button>
          <Button variant="secondary" onClick={exportCsv} disabled={isExporting || total === 0}>
            <FileDown aria-hidden="true" />
            {isExporting ? "Exporting..." : "Export CSV"}
          </Button>
        </div>
      </div>

      <Card role="region" aria-label="Customer list">
        <CardHeader className="gap-4 pb-4 sm:flex-row sm:items-end sm:justify-between">
          <div className="space-y-1.5">
            <CardTitle>All customers</CardTitle>
            <CardDescription>
              {total === 0
                ? "Each buyer shows up here the moment they pay."
                : `${customers.length} of ${search ? "the matching" : total} shown, most recent buyer first`}
            </CardDescription>
          </div>
          <div className="w-full space-y-1.5 sm:w-72">
            <Label htmlFor="customer-search">Search by email</Label>
            <div className="relative">
              <Search aria-hidden="true" className="absolute top-3 left-3 size-4 text-muted" />
              <Input
                id="customer-search"
                type="search"
                className="pl-9"
                value={typed}
                maxLength={AUDIENCE_LIMITS.searchMaxLength}
                placeholder="name@example.com"
                onChange={(event) => setTyped(event.target.value)}
              />
            </div>
          </div>
        </CardHeader>
        {isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading customers" />
          </div>
        ) : error && customers.length === 0 ? (
          <RetryNotice
            className="m-6"
            message={AUDIENCE_MESSAGES.customersLoadFailed}
            onRetry={() => void refetch()}
          />
        ) : customers.length === 0 ? (
          <div className="flex flex-col items-center gap-2 border-t border-line px-6 py-12 text-center">
            <Users aria-hidden="true" className="size-8 text-muted" />
            <p className="font-medium text-ink">
              {search ? AUDIENCE_MESSAGES.noMatches : AUDIENCE_MESSAGES.noCustomers}
            </p>
          </div>
        ) : (
          <>
            <List customers={customers} />
            {hasNextPage && (
              <LoadMoreButton onLoadMore={() => void fetchNextPage()} loading={isFetchingNextPage} />
            )}
          </>
        )}
      </Card>
    </div>
  );
}

/** /dashboard/customers: one row per buyer email, behind the same gates as the dashboard. */
export function CustomersPage() {
  return <SellerGate>{({ user }) => <Customers userId={user.id} />}</SellerGate>;
}
