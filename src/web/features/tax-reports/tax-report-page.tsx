import { Download, Landmark } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { formatMoney } from "../../../contracts/money";
import {
  QUARTER_PATTERN,
  quarterLabel,
  TAX_REPORT_MESSAGES,
  type TaxReport,
  type TaxReportRow,
  type TaxReportTotals,
} from "../../../contracts/tax-reports";
import { BackLink } from "../../components/back-link";
import { buttonVariants } from "../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { DASHBOARD_LOCALE } from "../../lib/money";
import { SellerGate } from "../seller/seller-gate";
import { taxReportCsvUrl, useTaxReport } from "./tax-reports-api";

const SELECT_CLASS =
  "h-10 w-full min-w-0 rounded-lg border border-line bg-white px-3 text-sm text-ink shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:w-auto";

const CELL = "px-3 py-2.5 first:pl-4 last:pr-4 sm:px-4 sm:first:pl-6 sm:last:pr-6 whitespace-nowrap";
const NUM = `${CELL} text-right tabular-nums`;

/** -2380 "usd" → "-$23.80": an amount of the report's currency (refunds are negative). */
const signedPrice = (cents: number, currency: string) => formatMoney(cents, currency, DASHBOARD_LOCALE);

type Amounts = TaxReportTotals;
type AmountColumn = { header: string; title?: string; cell: (row: Amounts) => React.ReactNode };

/** The amount columns, in the report's currency (the store currency). */
const amountColumns = (currency: string): AmountColumn[] => {
  /** A money cell: refunds are negative adjustments; zero shows as a quiet dash. */
  const money = (cents: number) =>
    cents === 0 ? <span className="text-muted">–</span> : signedPrice(cents, currency);
  return [
    { header: "Sales", cell: (row) => row.salesCount },
    { header: "Net sales", title: "Amount paid minus tax", cell: (row) => money(row.netCents) },
    { header: "Tax", title: "Tax collected", cell: (row) => money(row.taxCents) },
    {
      header: "Refunds net",
      title: "Orders refunded in this quarter",
      cell: (row) => money(row.refundsNetCents),
    },
    { header: "Refunds tax", cell: (row) => money(row.refundsTaxCents) },
    {
      header: "Reverse charge",
      title: "Business buyers with a valid VAT number",
      cell: (row) => money(row.reverseChargeNetCents),
    },
    {
      header: "Not collected",
      title: "Not registered there: Stripe collected nothing",
      cell: (row) => money(row.notCollectedNetCents),
    },
    {
      header: "Other zero-tax",
      title: "Exempt, zero-rated, not subject to tax, or before tax collection",
      cell: (row) => money(row.otherZeroTaxNetCents),
    },
  ];
};

const rowKey = (row: TaxReportRow) => `${row.country ?? "-"}|${row.state ?? "-"}|${row.taxRate ?? "-"}`;

function ReportTable({ report }: { report: TaxReport }) {
  const columns = amountColumns(report.currency);
  return (
    <section
      aria-label="Tax report"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: axe's scrollable-region-focusable: a box that scrolls must be reachable by keyboard.
      tabIndex={0}
      className="overflow-x-auto border-t border-line outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset"
    >
      <table className="w-full min-w-[56rem] text-left text-sm">
        <caption className="sr-only">
          Sales, tax and refunds in {quarterLabel(report.quarter)} by country, US state and tax rate
        </caption>
        <thead>
          <tr className="border-b border-line text-muted">
            <th scope="col" className={`${CELL} font-medium`}>
              Country
            </th>
            <th scope="col" className={`${CELL} text-right font-medium`}>
              Rate
            </th>
            {columns.map((column) => (
              <th key={column.header} scope="col" title={column.title} className={`${NUM} font-medium`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {report.rows.map((row) => (
            <tr key={rowKey(row)} data-testid="tax-report-row">
              <th scope="row" className={`${CELL} font-medium text-ink`}>
                {row.countryName}
                {row.state && <span className="text-muted"> · {row.state}</span>}
                {row.country && <span className="ml-1.5 text-xs font-normal text-muted">{row.country}</span>}
              </th>
              <td className={NUM}>
                {row.taxRate === null ? <span className="text-muted">–</span> : `${row.taxRate}%`}
              </td>
              {columns.map((column) => (
                <td key={column.header} className={`${NUM} text-ink`}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-line font-semibold text-ink">
          <tr>
            <th scope="row" className={CELL}>
              Total
            </th>
            <td className={NUM} />
            {columns.map((column) => (
              <td key={column.header} className={NUM}>
                {column.cell(report.totals)}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

function Summary({ totals, currency }: { totals: TaxReportTotals; currency: string }) {
  const items = [
    { label: "Net sales", value: signedPrice(totals.netCents, currency) },
    { label: "Tax collected", value: signedPrice(totals.taxCents, currency) },
    { label: "Refunds", value: signedPrice(totals.refundsNetCents + totals.refundsTaxCents, currency) },
    { label: "Not collected (not registered)", value: signedPrice(totals.notCollectedNetCents, currency) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {items.map((item) => (
        <Card key={item.label} className="p-4">
          <dt className="text-sm text-muted">{item.label}</dt>
          <dd className="mt-1 text-xl font-semibold text-ink tabular-nums">{item.value}</dd>
        </Card>
      ))}
    </dl>
  );
}

function TaxReportView({ userId }: { userId: string }) {
  // The quarter lives in the address: a reload, a shared link and Back keep it.
  const [params, setParams] = useSearchParams();
  const requested = params.get("quarter");
  const quarter = requested && QUARTER_PATTERN.test(requested) ? requested : null;
  const report = useTaxReport(userId, quarter);
  const data = report.data;

  return (
    <div className="space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="min-w-0">
          <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight text-ink">
            <Landmark aria-hidden="true" className="size-7 text-brand-600" />
            Tax report
          </h1>
          <p className="mt-1 max-w-2xl text-sm text-muted">
            What Stripe Tax decided on your orders, per quarter (UTC), by buyer country, US state and rate.
            Refunds are subtracted in the quarter of the refund, as an OSS return corrects them. Not sure what
            applies to you? Read the{" "}
            <Link
              to="/dashboard/tax/guide"
              className="font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              tax guide
            </Link>
            .
          </p>
        </div>
        {data && (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="flex min-w-0 flex-col gap-1.5">
              <label htmlFor="tax-quarter" className="text-sm font-medium text-ink">
                Quarter
              </label>
              <select
                id="tax-quarter"
                className={SELECT_CLASS}
                value={data.quarter}
                onChange={(event) => setParams({ quarter: event.target.value }, { replace: true })}
              >
                {data.quarters.map((option) => (
                  <option key={option} value={option}>
                    {quarterLabel(option)}
                  </option>
                ))}
              </select>
            </div>
            <a
              href={taxReportCsvUrl(data.quarter)}
              download
              className={buttonVariants({ variant: "secondary" })}
            >
              <Download aria-hidden="true" />
              Download CSV
            </a>
          </div>
        )}
      </div>

      {report.isPending ? (
        <PageSpinner label="Loading your tax report" />
      ) : report.isError || !data ? (
        <RetryNotice message={TAX_REPORT_MESSAGES.loadFailed} onRetry={() => void report.refetch()} />
      ) : (
        <div
          className={`space-y-6 ${report.isPlaceholderData ? "opacity-60" : ""}`}
          aria-busy={report.isPlaceholderData}
        >
          <Summary totals={data.totals} currency={data.currency} />
          <Card className="min-w-0">
            <CardHeader className="pb-4">
              <CardTitle>{quarterLabel(data.quarter)}</CardTitle>
              <CardDescription>
                Amounts in {data.currency.toUpperCase()}. Net is what the buyer paid minus tax. Reverse
                charge: business buyers with a valid VAT number, who account for the VAT themselves. Not
                collected: places where your Stripe account isn't registered, so Stripe collected nothing.
              </CardDescription>
            </CardHeader>
            {data.rows.length === 0 ? (
              <p className="border-t border-line px-6 py-8 text-center text-sm text-muted">
                {TAX_REPORT_MESSAGES.empty}
              </p>
            ) : (
              <ReportTable report={data} />
            )}
          </Card>
        </div>
      )}
    </div>
  );
}

/** /dashboard/tax/report: the quarter's tax by country, its totals, and the CSV for an OSS return. */
export function TaxReportPage() {
  return <SellerGate>{({ user }) => <TaxReportView userId={user.id} />}</SellerGate>;
}
