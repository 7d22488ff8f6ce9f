import { FileDown, Receipt } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { ORDER_MESSAGES, type Sale } from "../../../contracts/orders";
import { LoadMoreButton } from "../../components/load-more-button";
import { Button } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { useMediaQuery } from "../../lib/use-media-query";
import { RefundDialog } from "./refund-dialog";
import { useSales } from "./sales-api";
import { SalesCards, SalesTable } from "./sales-list";
import { useExportCsv } from "./use-export-csv";

function NoSales() {
  return (
    <div className="m-6 flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-slate-50/60 px-6 py-10 text-center">
      <Receipt className="size-6 text-slate-400" aria-hidden="true" />
      <p className="mt-3 text-sm font-medium text-ink">No sales yet</p>
      <p className="mt-1 max-w-sm text-sm text-muted">
        Share a product link. Each sale shows up here the moment it is paid.
      </p>
    </div>
  );
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="m-6 flex flex-col items-center rounded-xl border border-dashed border-red-200 bg-red-50/50 px-6 py-10 text-center">
      <p className="text-sm font-medium text-ink">{ORDER_MESSAGES.salesLoadFailed}</p>
      <Button variant="secondary" size="sm" className="mt-4" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** product rules, Error catalogue: a failed load says 'Error loading sales data', once per failure. */
function useSalesLoadFailureToast(error: Error | null) {
  useEffect(() => {
    if (error)
      toast.error(ORDER_MESSAGES.salesLoadFailed, { id: "sales-load-failed", description: error.message });
  }, [error]);
}

/** The dashboard's Customer Sales: every sale, newest first, live, with Export CSV and per-order actions. */
export function CustomerSales({ userId }: { userId: string }) {
  const { data, error, isPending, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useSales(userId);
  useSalesLoadFailureToast(error);
  const total = data?.pages[0]?.total ?? 0;
  const sales = data?.pages.flatMap((page) => page.sales) ?? [];
  const { exportCsv, isExporting } = useExportCsv(data?.pages[0]?.completed ?? 0);
  const wide = useMediaQuery("(min-width: 640px)");
  const [refunding, setRefunding] = useState<Sale | null>(null);
  const List = wide ? SalesTable : SalesCards;

  return (
    <Card role="region" aria-label="Customer Sales">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-4">
        <div className="space-y-1.5">
          <CardTitle>Customer Sales</CardTitle>
          {total > 0 && (
            <CardDescription>
              {sales.length} of {total} shown, newest first
            </CardDescription>
          )}
        </div>
        <Button variant="secondary" size="sm" onClick={exportCsv} disabled={isPending || isExporting}>
          <FileDown aria-hidden="true" />
          {isExporting ? "Exporting..." : "Export CSV"}
        </Button>
      </CardHeader>
      {isPending ? (
        <div className="flex justify-center py-10">
          <Spinner label="Loading sales" />
        </div>
      ) : error && sales.length === 0 ? (
        <LoadFailed onRetry={() => void refetch()} />
      ) : sales.length === 0 ? (
        <NoSales />
      ) : (
        <>
          <List userId={userId} sales={sales} onRefund={setRefunding} />
          {hasNextPage && (
            <LoadMoreButton onLoadMore={() => void fetchNextPage()} loading={isFetchingNextPage} />
          )}
        </>
      )}
      <RefundDialog userId={userId} sale={refunding} onClose={() => setRefunding(null)} />
    </Card>
  );
}
