import { Check, Compass, ExternalLink, Info, X } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { formatMoney } from "../../../contracts/money";
import {
  COUNTRY_CODE_PATTERN,
  countryName,
  formatEuros,
  GUIDE_COUNTRY_CHOICES,
  referenceRateText,
  TAX_GUIDE_LINKS,
  TAX_REPORT_MESSAGES,
  type TaxGuide,
  US_NEXUS_SALES_CENTS,
  US_NEXUS_TRANSACTIONS,
} from "../../../contracts/tax-reports";
import { BackLink } from "../../components/back-link";
import { Badge } from "../../components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Progress } from "../../components/ui/progress";
import { RetryNotice } from "../../components/ui/retry-notice";
import { PageSpinner } from "../../components/ui/spinner";
import { useMoney } from "../../lib/store-currency";
import { SellerGate } from "../seller/seller-gate";
import { useTaxGuide } from "./tax-reports-api";

const SELECT_CLASS =
  "h-10 w-full min-w-0 rounded-lg border border-line bg-white px-3 text-sm text-ink shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:w-auto";

const DAY = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const formatDate = (iso: string) => DAY.format(new Date(iso));
const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

function OfficialLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 font-medium text-brand-700 underline-offset-4 [overflow-wrap:anywhere] hover:underline"
    >
      {children}
      <ExternalLink aria-hidden="true" className="size-3.5 shrink-0" />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

type Tone = "success" | "warning" | "danger" | "neutral";

/** One rule: where the seller stands, what it means, what to do, and the official pages. */
function RuleCard({
  title,
  badge,
  status,
  meaning,
  todo,
  links,
  children,
}: {
  title: string;
  badge: { tone: Tone; label: string };
  status: ReactNode;
  meaning: ReactNode;
  todo: ReactNode;
  links: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>{title}</CardTitle>
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </div>
        <p className="text-base font-medium text-ink">{status}</p>
      </CardHeader>
      <CardContent className="space-y-4 text-sm text-ink">
        {children}
        <div>
          <h3 className="font-semibold">What it means</h3>
          <div className="mt-1 space-y-2 text-muted">{meaning}</div>
        </div>
        <div>
          <h3 className="font-semibold">What to do</h3>
          <div className="mt-1 space-y-2 text-muted">{todo}</div>
        </div>
        <div className="flex flex-col gap-1.5">
          <h3 className="font-semibold">Official pages</h3>
          {links}
        </div>
      </CardContent>
    </Card>
  );
}

const thresholdBadge = (percent: number): { tone: Tone; label: string } =>
  percent >= 100
    ? { tone: "danger", label: "Past the threshold" }
    : percent >= 50
      ? { tone: "warning", label: "Approaching" }
      : { tone: "success", label: "Under the threshold" };

function EuThreshold({ guide }: { guide: TaxGuide }) {
  const money = useMoney();
  const eu = guide.euSeller;
  if (!eu) return null;
  return (
    <RuleCard
      title="EU: the EUR 10,000 threshold"
      badge={thresholdBadge(eu.percentUsed)}
      status={`You're at ${formatEuros(eu.netEurCents)} of ${formatEuros(eu.thresholdEurCents)} this year (${eu.percentUsed}%).`}
      meaning={
        <>
          <p>
            A business established in one EU country that sells digital products (e-services) to consumers in
            other EU countries charges its own country's VAT as long as its total of such cross-border
            consumer sales, together with any distance sales of goods, stays at or under EUR 10,000 in both
            the current and the previous calendar year. Once it goes over, VAT is owed in each buyer's
            country, at that country's rate, from the sale that crosses it. You may also choose to charge the
            buyer's country's VAT before reaching it.
          </p>
          <p>
            Sales to businesses with a valid VAT number are reverse-charged (the buyer accounts for the VAT)
            and don't count. Neither do sales to buyers in your own country.
          </p>
        </>
      }
      todo={
        <>
          <p>
            Before you pass it, register for the Union One-Stop Shop (OSS) with your own country's tax
            authority: one quarterly return then covers every EU country. Add the registration in Stripe Tax
            so Checkout charges each buyer's country's VAT. The{" "}
            <Link
              to="/dashboard/tax/report"
              className="font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              tax report
            </Link>{" "}
            gives the quarter's totals per country for the return.
          </p>
          <p>If you passed EUR 10,000 last year, the threshold no longer applies this year.</p>
        </>
      }
      links={
        <>
          <OfficialLink href={TAX_GUIDE_LINKS.euOss}>EU VAT One Stop Shop</OfficialLink>
          <OfficialLink href={TAX_GUIDE_LINKS.euEcommerce}>EU VAT rules for e-commerce</OfficialLink>
        </>
      }
    >
      <Progress
        value={Math.min(100, eu.percentUsed)}
        label="Share of the EUR 10,000 threshold used this year"
      />
      <p className="text-xs text-muted">
        {plural(eu.count, "sale", "sales")} to consumers in other EU countries this calendar year (UTC),
        refunds left out: {money(eu.netCents)} before tax, converted at a fixed reference rate,{" "}
        {referenceRateText()}. An estimate: your accounts convert each sale at its own day's rate.
      </p>
    </RuleCard>
  );
}

function FromFirstSale({
  title,
  place,
  sales,
  meaning,
  todo,
  links,
}: {
  title: string;
  place: string;
  sales: NonNullable<TaxGuide["euConsumerSales"]>;
  meaning: ReactNode;
  todo: ReactNode;
  links: ReactNode;
}) {
  const money = useMoney();
  const status = sales.firstSaleAt
    ? `${plural(sales.count, "sale", "sales")} to consumers in ${place} since your first on ${formatDate(sales.firstSaleAt)}, ${money(sales.netCents)} before tax.`
    : `No sales to consumers in ${place} yet.`;
  return (
    <RuleCard
      title={title}
      badge={
        sales.count > 0
          ? { tone: "warning", label: "Applies from your first sale" }
          : { tone: "neutral", label: "No sales yet" }
      }
      status={status}
      meaning={meaning}
      todo={todo}
      links={links}
    />
  );
}

function UsNexus({ guide }: { guide: TaxGuide }) {
  const money = useMoney();
  const reached = guide.usStates.filter((state) => state.status === "reached").length;
  const badge: { tone: Tone; label: string } =
    reached > 0
      ? { tone: "danger", label: `${plural(reached, "state", "states")} reached` }
      : guide.usStates.length > 0
        ? { tone: "warning", label: "Approaching" }
        : { tone: "success", label: "Under the common thresholds" };
  const status =
    guide.usStates.length > 0
      ? `${plural(guide.usStates.length, "state is", "states are")} at half or more of $100,000 or 200 sales this year.`
      : guide.usStatesWithSales > 0
        ? `None of the ${plural(guide.usStatesWithSales, "state", "states")} you sold to this year is near $100,000 or 200 sales.`
        : "No sales to US buyers with a state recorded this year.";
  return (
    <RuleCard
      title="US states: economic nexus"
      badge={badge}
      status={status}
      meaning={
        <>
          <p>
            Since the Supreme Court's Wayfair decision (2018), US states can require sellers with no presence
            there to collect sales tax once their sales into the state pass a threshold ("economic nexus").
            $100,000 of sales a year is the most common threshold; some states also count 200 transactions,
            and several have dropped that test. Most states apply their rules to any remote seller, including
            sellers outside the US.
          </p>
          <p>
            States differ: the amount, whether it counts all or only taxable sales, the current or the
            previous year, and whether digital downloads are taxed at all (some states don't tax them). The
            figures here use the common $100,000 / 200 sales test on this calendar year's sales, refunds left
            out.
          </p>
          {guide.sellerCountry === "US" && (
            <p>
              In the state where your business is based you usually have nexus already, whatever your sales.
            </p>
          )}
        </>
      }
      todo={
        <p>
          Before you reach a state's threshold, check its own rules on its department of revenue's website. If
          you must collect there, register with the state and add the registration in Stripe Tax. States in
          the Streamlined Sales Tax agreement share one free registration.
        </p>
      }
      links={
        <>
          <OfficialLink href={TAX_GUIDE_LINKS.usStreamlined}>Streamlined Sales Tax</OfficialLink>
          <p className="text-muted">and each state's department of revenue.</p>
        </>
      }
    >
      {guide.usStates.length > 0 && (
        <ul className="divide-y divide-line rounded-xl border border-line">
          {guide.usStates.map((state) => (
            <li
              key={state.state}
              className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="flex items-center gap-2 font-medium">
                {state.state}
                <Badge tone={state.status === "reached" ? "danger" : "warning"}>
                  {state.status === "reached" ? "Reached" : "Approaching"}
                </Badge>
              </span>
              <span className="text-muted tabular-nums">
                {money(state.netCents)} of {formatMoney(US_NEXUS_SALES_CENTS, "usd")} ({state.salesPercent}%)
                · {state.count.toLocaleString("en-US")} of {US_NEXUS_TRANSACTIONS} sales (
                {state.transactionsPercent}%)
              </span>
            </li>
          ))}
        </ul>
      )}
    </RuleCard>
  );
}

function CollectingIn({ guide }: { guide: TaxGuide }) {
  const money = useMoney();
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Where Stripe already collects for you</CardTitle>
        <CardDescription>
          Places where an order carried tax in the last 12 months: your Stripe account is registered there.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {guide.collectingIn.length === 0 ? (
          <p className="text-sm text-muted">
            Stripe hasn't collected tax on any of your orders in the last 12 months.
          </p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {guide.collectingIn.map((place) => (
              <li key={`${place.country}-${place.state ?? ""}`}>
                <Badge tone="success">
                  {countryName(place.country)}
                  {place.state ? ` · ${place.state}` : ""}: {money(place.taxCents)} on{" "}
                  {plural(place.count, "order", "orders")}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function WhatFlatfeeDoes() {
  const does = [
    "Passes your prices and each product's tax code to Stripe Tax, on your own Stripe account.",
    "Records the tax Stripe decided on every order.",
    "Makes invoices in your name.",
    "Gives you the tax report and this guide.",
  ];
  const doesNot = [
    "Register you for VAT or sales tax anywhere.",
    "File returns or pay the tax to any authority.",
    "Check whether a product is exempt or taxed differently in a place.",
  ];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>What Flatfee does, and doesn't</CardTitle>
        <CardDescription>
          You are the seller of record: the tax on your sales is yours to register, file and pay.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 text-sm sm:grid-cols-2">
        <div>
          <h3 className="font-semibold text-ink">Flatfee does</h3>
          <ul className="mt-2 space-y-2">
            {does.map((item) => (
              <li key={item} className="flex gap-2 text-ink">
                <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                {item}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="font-semibold text-ink">Flatfee doesn't</h3>
          <ul className="mt-2 space-y-2">
            {doesNot.map((item) => (
              <li key={item} className="flex gap-2 text-ink">
                <X aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
                {item}
              </li>
            ))}
          </ul>
        </div>
      </CardContent>
    </Card>
  );
}

function CountryLine({ guide, onChoose }: { guide: TaxGuide; onChoose: (country: string | null) => void }) {
  const where =
    guide.sellerCountrySource === "stripe"
      ? "from your Stripe account's head office address."
      : guide.sellerCountrySource === "chosen"
        ? guide.stripeCountry
          ? `chosen on this page (your Stripe account says ${countryName(guide.stripeCountry)}).`
          : "chosen on this page (Stripe hasn't told us your head office yet)."
        : null;
  const choices = [...GUIDE_COUNTRY_CHOICES].sort((a, b) => countryName(a).localeCompare(countryName(b)));
  return (
    <Card className="p-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <p className="text-sm text-ink">
          {guide.sellerCountry && where ? (
            <>
              Your business is in <strong>{countryName(guide.sellerCountry)}</strong>, {where}
            </>
          ) : (
            "Where is your business established? Stripe hasn't told us your head office yet: choose your country to see which rules apply."
          )}
        </p>
        <div className="flex min-w-0 flex-col gap-1.5">
          <label htmlFor="guide-country" className="text-sm font-medium text-ink">
            {guide.sellerCountry ? "Not right? Choose another" : "Your country"}
          </label>
          <select
            id="guide-country"
            className={SELECT_CLASS}
            value={guide.sellerCountrySource === "chosen" ? (guide.sellerCountry ?? "") : ""}
            onChange={(event) => onChoose(event.target.value || null)}
          >
            <option value="">
              {guide.stripeCountry ? `As on Stripe (${countryName(guide.stripeCountry)})` : "Choose…"}
            </option>
            {choices.map((code) => (
              <option key={code} value={code}>
                {countryName(code)}
              </option>
            ))}
          </select>
        </div>
      </div>
    </Card>
  );
}

function Guide({ guide }: { guide: TaxGuide }) {
  const eu = guide.euConsumerSales;
  const uk = guide.ukConsumerSales;
  return (
    <div className="space-y-6">
      <EuThreshold guide={guide} />
      {eu && (
        <FromFirstSale
          title="EU: VAT from your first sale to a consumer"
          place="the EU"
          sales={eu}
          meaning={
            <>
              <p>
                A business established outside the EU that sells digital products (e-services) to consumers in
                the EU owes VAT in each buyer's country, at that country's rate, from the first sale: there is
                no threshold. The non-Union One-Stop Shop (OSS) lets you register in one EU country and file
                one quarterly return for all of them.
              </p>
              <p>
                Sales to businesses with a valid VAT number are reverse-charged: the buyer accounts for the
                VAT.
              </p>
            </>
          }
          todo={
            <p>
              Register for the non-Union OSS in an EU country of your choice, then add the registration in
              Stripe Tax so Checkout charges VAT to EU consumers. Until then, Stripe collects nothing on these
              sales: the{" "}
              <Link
                to="/dashboard/tax/report"
                className="font-medium text-brand-700 underline-offset-4 hover:underline"
              >
                tax report
              </Link>{" "}
              lists them as "not collected".
            </p>
          }
          links={
            <>
              <OfficialLink href={TAX_GUIDE_LINKS.euOss}>EU VAT One Stop Shop</OfficialLink>
              <OfficialLink href={TAX_GUIDE_LINKS.euEcommerce}>EU VAT rules for e-commerce</OfficialLink>
            </>
          }
        />
      )}
      {uk && (
        <FromFirstSale
          title="UK: VAT from your first sale to a consumer"
          place="the UK"
          sales={uk}
          meaning={
            <p>
              A business established outside the UK that sells digital services, digital downloads included,
              to consumers in the UK must register for UK VAT: there is no registration threshold for
              businesses not established in the UK, so it applies from the first sale. Sales to UK businesses
              are accounted for by the buyer.
            </p>
          }
          todo={
            <p>
              Register for UK VAT with HMRC, then add the registration in Stripe Tax so Checkout charges UK
              VAT.
            </p>
          }
          links={
            <OfficialLink href={TAX_GUIDE_LINKS.ukDigital}>
              GOV.UK: VAT rules for digital services to private consumers
            </OfficialLink>
          }
        />
      )}
      <UsNexus guide={guide} />
      <CollectingIn guide={guide} />
      <WhatFlatfeeDoes />
    </div>
  );
}

function TaxGuideView({ userId }: { userId: string }) {
  // A country chosen here lives in the address only (?country=): it is stored nowhere.
  const [params, setParams] = useSearchParams();
  const requested = params.get("country")?.toUpperCase() ?? null;
  const country = requested && COUNTRY_CODE_PATTERN.test(requested) ? requested : null;
  const guide = useTaxGuide(userId, country);
  const data = guide.data;
  return (
    <div className="space-y-6">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <div className="min-w-0">
        <h1 className="flex items-center gap-2 text-3xl font-bold tracking-tight text-ink">
          <Compass aria-hidden="true" className="size-7 text-brand-600" />
          Tax guide
        </h1>
        <p className="mt-1 max-w-2xl text-sm text-muted">
          Which tax rules may apply to your sales, and where you stand, from your country and your actual
          sales by buyer country.
        </p>
      </div>
      <div
        role="note"
        className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      >
        <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <p>
          <strong>{TAX_REPORT_MESSAGES.notAdvice}</strong> It summarises common rules for selling digital
          products and may not cover your situation; rules change. Check the official pages, or ask a tax
          adviser, before you decide.
        </p>
      </div>
      {guide.isPending ? (
        <PageSpinner label="Loading your tax guide" />
      ) : guide.isError || !data ? (
        <RetryNotice message={TAX_REPORT_MESSAGES.guideLoadFailed} onRetry={() => void guide.refetch()} />
      ) : (
        <div
          className={`space-y-6 ${guide.isPlaceholderData ? "opacity-60" : ""}`}
          aria-busy={guide.isPlaceholderData}
        >
          <CountryLine
            guide={data}
            onChoose={(next) => setParams(next ? { country: next } : {}, { replace: true })}
          />
          <Guide guide={data} />
        </div>
      )}
    </div>
  );
}

/** /dashboard/tax/guide: a tax guide, not tax advice. */
export function TaxGuidePage() {
  return <SellerGate>{({ user }) => <TaxGuideView userId={user.id} />}</SellerGate>;
}
