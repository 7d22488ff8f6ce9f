import { BarChart3 } from "lucide-react";
import { useSearchParams } from "react-router";
import {
  ANALYTICS_MESSAGES,
  ANALYTICS_PERIOD_LABELS,
  ANALYTICS_PERIODS,
  type AnalyticsPeriod,
  type SellerAnalytics,
} from "../../../contracts/analytics";
import { formatMoney, formatWholeMoney } from "../../../contracts/money";
import { BackLink } from "../../components/back-link";
import { Card } from "../../components/ui/card";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { DASHBOARD_LOCALE } from "../../lib/money";
import { useStoreCurrency } from "../../lib/store-currency";
import { SellerGate } from "../seller/seller-gate";
import { useAnalytics, useAnalyticsProducts } from "./analytics-api";
import {
  changeOf,
  formatCount,
  formatDay,
  formatRate,
  pointLabel,
  previousLabel,
  sourceDetails,
  sourceName,
  type TotalKey,
} from "./analytics-format";
import { DataTable, TableCard, type TableColumn } from "./analytics-table";
import { BarChart } from "./bar-chart";
import { MembershipTotals } from "./membership-totals";
import { TotalCard } from "./total-card";

const DEFAULT_PERIOD: AnalyticsPeriod = "30d";
const isPeriod = (value: string | null): value is AnalyticsPeriod =>
  (ANALYTICS_PERIODS as readonly string[]).includes(value ?? "");

const SELECT_CLASS =
  "h-10 w-full min-w-0 rounded-lg border border-line bg-white px-3 text-sm text-ink shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:w-auto";

type Measure = { key: TotalKey; title: string; format: (value: number) => string };

/** The totals and charts; revenue is an amount of the store currency. */
const measures = (currency: string): Measure[] => [
  {
    key: "revenueCents",
    title: "Revenue",
    format: (value) => formatMoney(value, currency, DASHBOARD_LOCALE),
  },
  { key: "units", title: "Units sold", format: formatCount },
  { key: "productViews", title: "Product page views", format: formatCount },
  { key: "storeViews", title: "Store views", format: formatCount },
];

/** A whole-number axis for counts; revenue in whole units of the store currency, without decimals. */
const axisFormat = (key: TotalKey, currency: string) =>
  key === "revenueCents"
    ? (value: number) => formatWholeMoney(value, currency)
    : (value: number) => formatCount(value);

/** How the series is grouped, as the charts and their table say it. */
const perBucket = (data: SellerAnalytics) => (data.bucket === "week" ? "per week" : "per day");

function Filters({
  userId,
  period,
  productId,
  onChange,
}: {
  userId: string;
  period: AnalyticsPeriod;
  productId: string | null;
  onChange: (next: { period: AnalyticsPeriod; productId: string | null }) => void;
}) {
  const products = useAnalyticsProducts(userId);
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="flex min-w-0 flex-col gap-1.5">
        <label htmlFor="analytics-period" className="text-sm font-medium text-ink">
          Period
        </label>
        <select
          id="analytics-period"
          className={SELECT_CLASS}
          value={period}
          onChange={(event) => {
            const next = event.target.value;
            if (isPeriod(next)) onChange({ period: next, productId });
          }}
        >
          {ANALYTICS_PERIODS.map((option) => (
            <option key={option} value={option}>
              {ANALYTICS_PERIOD_LABELS[option]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-0 flex-col gap-1.5 sm:max-w-xs">
        <label htmlFor="analytics-product" className="text-sm font-medium text-ink">
          Product
        </label>
        <select
          id="analytics-product"
          className={SELECT_CLASS}
          value={productId ?? ""}
          onChange={(event) => onChange({ period, productId: event.target.value || null })}
        >
          <option value="">All products</option>
          {products.data?.products.map((product) => (
            <option key={product.id} value={product.id}>
              {product.title}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function Totals({ data }: { data: SellerAnalytics }) {
  const compare = previousLabel(data.period);
  const currency = useStoreCurrency();
  return (
    <section aria-label="Totals" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:gap-4">
      {measures(currency).map((measure) => (
        <TotalCard
          key={measure.key}
          title={measure.title}
          value={measure.format(data.totals[measure.key])}
          change={changeOf(data.totals[measure.key], data.previous?.[measure.key])}
          compareLabel={compare}
        />
      ))}
      <TotalCard title="Conversion" value={formatRate(data.totals.conversionRate)} />
      <TotalCard
        title="Recovered"
        value={formatMoney(data.recovered.revenueCents, currency, DASHBOARD_LOCALE)}
        detail={data.recovered.units === 1 ? "1 sale" : `${formatCount(data.recovered.units)} sales`}
        change={changeOf(data.recovered.revenueCents, data.recovered.previousRevenueCents)}
        compareLabel={compare}
        note="Paid through a recovery email"
      />
    </section>
  );
}

function Charts({ data }: { data: SellerAnalytics }) {
  const per = perBucket(data);
  const currency = useStoreCurrency();
  return (
    <section aria-label="Charts" className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      {measures(currency).map((measure) => {
        const points = data.series.map((point) => ({
          label: pointLabel(point.date, data.bucket),
          axisLabel: formatDay(point.date),
          value: point[measure.key],
        }));
        const best = points.reduce<(typeof points)[number] | undefined>(
          (top, point) => (top === undefined || point.value > top.value ? point : top),
          undefined,
        );
        const summary =
          best && best.value > 0
            ? `${measure.format(data.totals[measure.key])} in total, highest ${measure.format(best.value)} (${best.label})`
            : "none in this period";
        return (
          <Card key={measure.key} className="min-w-0 p-4 sm:p-5">
            <div className="mb-3 flex items-baseline justify-between gap-3">
              <h2 className="text-base font-semibold text-ink">
                {measure.title} <span className="font-normal text-muted">{per}</span>
              </h2>
              <p className="shrink-0 text-sm font-semibold text-ink tabular-nums">
                {measure.format(data.totals[measure.key])}
              </p>
            </div>
            <BarChart
              title={`${measure.title} ${per}`}
              points={points}
              format={measure.format}
              tickFormat={axisFormat(measure.key, currency)}
              integer
              summary={summary}
            />
          </Card>
        );
      })}
    </section>
  );
}

type SeriesPoint = SellerAnalytics["series"][number];
type Source = SellerAnalytics["sources"][number];
type ProductRow = SellerAnalytics["products"][number];

/** Free-text names (sites, product titles) stand out and may break anywhere to fit a phone. */
const NAME_CELL = "font-medium [overflow-wrap:anywhere]";

const seriesColumns = (data: SellerAnalytics, currency: string): TableColumn<SeriesPoint>[] => [
  {
    header: data.bucket === "week" ? "Week of" : "Day",
    cellClassName: "font-normal",
    cell: (point) => formatDay(point.date, true),
  },
  ...measures(currency).map(
    (measure): TableColumn<SeriesPoint> => ({
      header: measure.title,
      align: "right",
      cell: (point) => measure.format(point[measure.key]),
    }),
  ),
];

/** Views, sales and revenue (in the store currency): the same three numbers per traffic source and per product. */
const salesColumns = <Row extends Pick<ProductRow, "productViews" | "units" | "revenueCents">>(
  currency: string,
): TableColumn<Row>[] => [
  { header: "Views", align: "right", cell: (row) => formatCount(row.productViews) },
  { header: "Sales", align: "right", cell: (row) => formatCount(row.units) },
  {
    header: "Revenue",
    align: "right",
    cell: (row) => formatMoney(row.revenueCents, currency, DASHBOARD_LOCALE),
  },
];

const sourceColumns = (currency: string): TableColumn<Source>[] => [
  {
    header: "Source",
    cellClassName: NAME_CELL,
    cell: (source) => (
      <>
        {sourceName(source)}
        {sourceDetails(source).map((detail) => (
          <span key={detail} className="block text-xs font-normal text-muted">
            {detail}
          </span>
        ))}
      </>
    ),
  },
  ...salesColumns<Source>(currency),
];

const productColumns = (currency: string): TableColumn<ProductRow>[] => [
  {
    header: "Product",
    cellClassName: NAME_CELL,
    cell: (product) => (
      <>
        {product.title}
        <span className="block text-xs font-normal text-muted sm:hidden">
          Conversion {formatRate(product.conversionRate)}
        </span>
      </>
    ),
  },
  ...salesColumns<ProductRow>(currency),
  // On a phone, conversion is a line under the product's name instead.
  {
    header: "Conversion",
    align: "right",
    hiddenOnPhone: true,
    cell: (product) => formatRate(product.conversionRate),
  },
];

const sourceKey = (source: Source) =>
  [source.referrerHost, source.utmSource, source.utmMedium, source.utmCampaign].join("\n");

function SeriesTable({ data }: { data: SellerAnalytics }) {
  const per = perBucket(data);
  const currency = useStoreCurrency();
  return (
    <Card className="min-w-0">
      <details>
        <summary className="cursor-pointer rounded-2xl px-6 py-4 text-sm font-medium text-ink outline-none hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-brand-500">
          The charts' numbers {per}
        </summary>
        <DataTable
          label="The charts' numbers"
          caption={`Revenue, units sold, product page views and store views ${per}`}
          columns={seriesColumns(data, currency)}
          rows={data.series}
          rowKey={(point) => point.date}
          wide
        />
      </details>
    </Card>
  );
}

function SourcesTable({ data }: { data: SellerAnalytics }) {
  const currency = useStoreCurrency();
  return (
    <TableCard
      title="Traffic sources"
      description="Where product page visitors and buyers came from: the site that linked to you, and the link's utm_source, utm_medium and utm_campaign. A sale counts for the visit that started it."
      emptyMessage="No visits in this period yet."
      caption="Top traffic sources by revenue, sales and views"
      columns={sourceColumns(currency)}
      rows={data.sources}
      rowKey={sourceKey}
      rowTestId="source-row"
    />
  );
}

function ProductsTable({ data }: { data: SellerAnalytics }) {
  const currency = useStoreCurrency();
  return (
    <TableCard
      title="Products"
      description="Conversion is sales ÷ product page views in the period, at most 100%."
      emptyMessage="No views or sales in this period yet."
      caption="Views, sales, revenue and conversion per product"
      columns={productColumns(currency)}
      rows={data.products}
      rowKey={(product) => product.productId}
    />
  );
}

function Analytics({ userId }: { userId: string }) {
  // The choice lives in the address: a reload, a shared link and Back keep it.
  const [params, setParams] = useSearchParams();
  const requested = params.get("period");
  const period = isPeriod(requested) ? requested : DEFAULT_PERIOD;
  const productId = params.get("product") || null;
  const analytics = useAnalytics(userId, period, productId);
  const choose = (next: { period: AnalyticsPeriod; productId: string | null }) =>
    setParams(
      {
        ...(next.period !== DEFAULT_PERIOD ? { period: next.period } : {}),
        ...(next.productId ? { product: next.productId } : {}),
      },
      { replace: true },
    );
  const data = analytics.data;

  return (
    <div className="space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="min-w-0">
          <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight text-ink">
            <BarChart3 aria-hidden="true" className="size-7 text-brand-600" />
            Analytics
          </h1>
          <p className="mt-1 text-sm text-muted">
            {data
              ? `${formatDay(data.from, true)} – ${formatDay(data.to, true)} (UTC days). Revenue is net of refunds, before Stripe fees.`
              : "Sales, views and where your buyers came from."}
          </p>
        </div>
        <Filters userId={userId} period={period} productId={productId} onChange={choose} />
      </div>

      {analytics.isPending ? (
        <PageSpinner label="Loading your analytics" />
      ) : analytics.isError || !data ? (
        <RetryNotice message={ANALYTICS_MESSAGES.loadFailed} onRetry={() => void analytics.refetch()} />
      ) : (
        <div
          className={`space-y-6 ${analytics.isPlaceholderData ? "opacity-60" : ""}`}
          aria-busy={analytics.isPlaceholderData}
        >
          <Totals data={data} />
          <MembershipTotals data={data} />
          <Charts data={data} />
          <SeriesTable data={data} />
          <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
            <SourcesTable data={data} />
            <ProductsTable data={data} />
          </div>
        </div>
      )}
    </div>
  );
}

/** /dashboard/analytics: the seller's sales, views and traffic sources, behind the dashboard's gates. */
export function AnalyticsPage() {
  return <SellerGate>{({ user }) => <Analytics userId={user.id} />}</SellerGate>;
}
