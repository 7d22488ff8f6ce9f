import { formatMoney } from "../../../contracts/money";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { Spinner } from "../../components/ui/spinner";
import { formatBytes } from "../../lib/format-bytes";
import { usePlatformFigures } from "./enforcement-api";
import { OperatorGate } from "./operator-gate";

/** "2026-11" as "Nov 2026". */
const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Card>
      <CardHeader className="pb-6">
        <CardDescription>{label}</CardDescription>
        <CardTitle className="text-2xl tabular-nums">{value}</CardTitle>
        {note && <p className="text-xs text-muted">{note}</p>}
      </CardHeader>
    </Card>
  );
}

function Overview() {
  const figures = usePlatformFigures();
  if (figures.isPending) return <Spinner label="Loading the platform's figures" />;
  if (figures.isError)
    return (
      <RetryNotice message="Couldn't load the platform's figures." onRetry={() => void figures.refetch()} />
    );
  const { payingSellers, mrrCents, storageBytes, months } = figures.data;
  return (
    <>
      <div className="mt-6 grid gap-4 sm:grid-cols-3">
        <Figure
          label="Paying sellers"
          value={payingSellers.toLocaleString("en-US")}
          note="Plan active in Stripe"
        />
        <Figure label="MRR" value={formatMoney(mrrCents, "usd")} note="Paying sellers × the $10 plan" />
        <Figure label="Storage" value={formatBytes(storageBytes)} note="Every seller's uploads" />
      </div>
      <Card className="mt-6 overflow-hidden">
        <CardHeader className="pb-4">
          <CardTitle>The last 12 months</CardTitle>
          <CardDescription>
            GMV is completed orders' settlement in each store's currency, one line per currency: amounts in
            different currencies are never added.
          </CardDescription>
        </CardHeader>
        <CardContent className="overflow-x-auto p-0">
          <table className="w-full text-sm">
            <thead className="border-y border-line bg-slate-50 text-left text-xs uppercase tracking-wide text-muted">
              <tr>
                <th scope="col" className="px-4 py-2 sm:px-6 font-medium">
                  Month
                </th>
                <th scope="col" className="px-2 py-2 sm:px-3 text-right font-medium">
                  New sellers
                </th>
                <th scope="col" className="px-2 py-2 sm:px-3 text-right font-medium">
                  Churned
                </th>
                <th scope="col" className="px-4 py-2 sm:px-6 text-right font-medium">
                  GMV
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {[...months].reverse().map((month) => (
                <tr key={month.month}>
                  <th
                    scope="row"
                    className="px-4 py-2 text-left font-medium whitespace-nowrap sm:px-6 text-ink"
                  >
                    {monthLabel(month.month)}
                  </th>
                  <td className="px-2 py-2 sm:px-3 text-right tabular-nums">{month.newSellers}</td>
                  <td className="px-2 py-2 sm:px-3 text-right tabular-nums">{month.churnedSellers}</td>
                  <td className="px-4 py-2 sm:px-6 text-right tabular-nums">
                    {month.gmv.length === 0 ? (
                      <span className="text-muted">—</span>
                    ) : (
                      <ul>
                        {month.gmv.map((amount) => (
                          <li key={amount.currency}>{formatMoney(amount.amountCents, amount.currency)}</li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>
    </>
  );
}

/** /operator: the platform at a glance. */
export function OverviewPage() {
  return (
    <OperatorGate>
      <h1 className="text-2xl font-bold tracking-tight text-ink">Overview</h1>
      <p className="mt-1 text-sm text-muted">The platform's figures, from our own database.</p>
      <Overview />
    </OperatorGate>
  );
}
