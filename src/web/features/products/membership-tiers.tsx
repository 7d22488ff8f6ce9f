import { CalendarClock, Download, Repeat, ShieldCheck, Sparkles } from "lucide-react";
import type { ReactNode } from "react";
import type { ProductPrice } from "../../../contracts/discounts";
import { MEMBERSHIP_LIMITS, type Tier, yearlySavingPercent } from "../../../contracts/memberships";
import type { PublicProduct } from "../../../contracts/products";
import { Button } from "../../components/ui/button";
import { useI18n, useServerText } from "../../lib/i18n";
import { cn } from "../../lib/utils";
import { SourceFields } from "../analytics/source-fields";
import { NoteItem } from "../downloads/download-terms-notes";
import { BusinessBuyerFields } from "./business-buyer-fields";
import { localMembershipPriceLabel } from "./membership-price";
import { DiscountCodeForm } from "./price-forms";

/** "7-day free trial", none without a trial. */
export const trialLabel = (trialDays: number): string | null =>
  trialDays > 0 ? `${trialDays}-day free trial` : null;

/** "Save 16%" beside a yearly price that saves something against twelve months. */
export function savingLabel(tier: Pick<Tier, "monthlyPriceCents" | "yearlyPriceCents">): string | null {
  const percent = yearlySavingPercent(tier.monthlyPriceCents, tier.yearlyPriceCents);
  return percent > 0 ? `Save ${percent}%` : null;
}

/** A tier's price per period, in the currency it is shown in (the buyer's when the tier has a price in it). */
function Price({ cents, currency, per }: { cents: number; currency: string; per: "month" | "year" }) {
  const { t, money } = useI18n();
  return (
    <>
      <span className="text-3xl font-bold tracking-tight text-ink tabular-nums">
        {money(cents, currency)}
      </span>
      <span className="text-sm font-medium text-muted">
        {t(per === "month" ? "membership.perMonth" : "membership.perYear")}
      </span>
    </>
  );
}

/**
 * Monthly or yearly, without script: two radios named `interval` (the form sends the one checked) and
 * the price of each; the page's stylesheet (public-pages.css, `.membership-interval`) shows the checked
 * one's price and marks its label. Without that stylesheet both prices show and the radios still work.
 */
function IntervalSwitch({
  formId,
  tier,
  yearlyCents,
  currency,
}: {
  formId: string;
  tier: Tier;
  yearlyCents: number;
  currency: string;
}) {
  const { t } = useI18n();
  const percent = yearlySavingPercent(tier.monthlyPriceCents, tier.yearlyPriceCents);
  const saving = percent > 0 ? t("membership.save", { percent }) : null;
  const monthId = `${formId}-month`;
  const yearId = `${formId}-year`;
  return (
    <fieldset className="membership-interval grid min-w-0 gap-3">
      <legend className="sr-only">{t("membership.billingPeriodFor", { tier: tier.name })}</legend>
      <input type="radio" id={monthId} name="interval" value="month" defaultChecked className="sr-only" />
      <input type="radio" id={yearId} name="interval" value="year" className="sr-only" />
      <div className="membership-interval-switch grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 text-sm font-medium">
        <label htmlFor={monthId} data-interval-label="month">
          {t("membership.monthly")}
        </label>
        <label htmlFor={yearId} data-interval-label="year">
          {t("membership.yearly")}
          {saving && <span className="membership-interval-saving">{saving}</span>}
        </label>
      </div>
      <p data-interval-price="month">
        <span className="flex flex-wrap items-baseline gap-x-1">
          <Price cents={tier.monthlyPriceCents} currency={currency} per="month" />
        </span>
      </p>
      <p data-interval-price="year">
        <span className="flex flex-wrap items-baseline gap-x-1">
          <Price cents={yearlyCents} currency={currency} per="year" />
          {saving && (
            <span className="ml-2 rounded-full bg-emerald-50 px-2.5 py-0.5 text-sm font-medium text-emerald-800">
              {saving}
            </span>
          )}
        </span>
      </p>
    </fieldset>
  );
}

/**
 * One tier and its Subscribe form: a plain POST (the server answers with Stripe Checkout, like Buy Now),
 * carrying the tier, the billing period, the buyer's code and where the visit came from.
 */
function TierCard({
  product,
  tier,
  code,
  source,
}: {
  product: PublicProduct;
  tier: Tier;
  code: string | null;
  source?: Record<string, string> | undefined;
}) {
  const { t, rich } = useI18n();
  const formId = `tier-${tier.id}`;
  const trial = tier.trialDays > 0 ? t("membership.trial", { days: tier.trialDays }) : null;
  return (
    <li className="flex min-w-0">
      <form
        method="post"
        action={`/product/${product.id}/subscribe`}
        data-buy-now={t("checkout.busy")}
        aria-labelledby={`${formId}-name`}
        className="flex w-full min-w-0 flex-col gap-4 rounded-2xl border border-line bg-white p-5 shadow-card"
      >
        <input type="hidden" name="tierId" value={tier.id} />
        {/* Checkout is made in the currency the tier's price was shown in (docs/money.md). */}
        <input type="hidden" name="currency" value={tier.currency} />
        {code && <input type="hidden" name="code" value={code} />}
        <SourceFields source={source} />
        <div className="space-y-1.5">
          <h3 id={`${formId}-name`} className="text-lg font-semibold break-words text-ink">
            {tier.name}
          </h3>
          {tier.description && (
            <p className="text-sm leading-relaxed break-words whitespace-pre-line text-muted">
              {tier.description}
            </p>
          )}
        </div>
        {tier.yearlyPriceCents !== null ? (
          <IntervalSwitch
            formId={formId}
            tier={tier}
            yearlyCents={tier.yearlyPriceCents}
            currency={tier.currency}
          />
        ) : (
          <>
            <input type="hidden" name="interval" value="month" />
            <p className="flex flex-wrap items-baseline gap-x-1">
              <Price cents={tier.monthlyPriceCents} currency={tier.currency} per="month" />
            </p>
          </>
        )}
        {trial && (
          <p className="flex items-center gap-2 text-sm font-medium text-emerald-800">
            <Sparkles className="size-4 shrink-0" aria-hidden="true" />
            {trial}
          </p>
        )}
        {product.seller.taxNote && product.purchasable && (
          <BusinessBuyerFields product={product} idPrefix={`${formId}-business`} />
        )}
        <Button type="submit" size="lg" className="mt-auto w-full" disabled={!product.purchasable}>
          {rich<ReactNode>("membership.subscribe", {
            tier: tier.name,
            hidden: (chunks) => (
              <span key="tier" className="sr-only">
                {chunks}
              </span>
            ),
          })}
        </Button>
      </form>
    </li>
  );
}

/**
 * A membership's tiers open to new members, each with its Subscribe form: side by side where the
 * section is wide (three to a row, four when there are four), stacked where it is narrow (a phone, the
 * embed overlay), then the discount code and the small print. `quote` is the page priced
 * with the buyer's `?code=`: a code that applies goes with every Subscribe form. `refused` is why the
 * last Subscribe was refused.
 */
export function MembershipTiers({
  product,
  quote,
  source,
  refused,
}: {
  product: PublicProduct;
  quote?: ProductPrice | undefined;
  source?: Record<string, string> | undefined;
  refused?: string | undefined;
}) {
  const { t, rich } = useI18n();
  const serverText = useServerText();
  const code = quote && quote.refusal === null ? quote.code : null;
  return (
    <section aria-labelledby={`tiers-${product.id}`} className="@container min-w-0 space-y-4">
      <h2 id={`tiers-${product.id}`} className="text-xl font-semibold tracking-tight text-ink">
        {t("membership.choose")}
      </h2>
      {refused && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {serverText(refused)}
        </p>
      )}
      {code && (
        <p className="text-sm text-muted">
          {rich<ReactNode>("membership.codeGoesWith", {
            code,
            b: (chunks) => (
              <span key="code" className="font-semibold text-ink">
                {chunks}
              </span>
            ),
          })}
        </p>
      )}
      {product.tiers.length > 0 ? (
        <ul
          className={cn(
            "grid gap-4 @2xl:grid-cols-2",
            product.tiers.length === 4 ? "@4xl:grid-cols-4" : "@4xl:grid-cols-3",
          )}
        >
          {product.tiers.map((tier) => (
            <TierCard key={tier.id} product={product} tier={tier} code={code} source={source} />
          ))}
        </ul>
      ) : (
        <p role="status" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">
          {t("membership.closed")}
        </p>
      )}
      <div className="grid items-start gap-5 pt-2 @4xl:grid-cols-2 @4xl:gap-12">
        {product.purchasable && <DiscountCodeForm product={product} quote={quote} source={source} />}
        <MembershipNotes product={product} />
      </div>
    </section>
  );
}

/** The lowest price a membership starts at, under its title, and how it is billed. */
export function MembershipPriceLine({ product }: { product: PublicProduct }) {
  const i18n = useI18n();
  const serverText = useServerText();
  const count = product.tiers.length;
  const yearly = product.tiers.some((tier) => tier.yearlyPriceCents !== null);
  return (
    <div className="space-y-1">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-2xl font-bold tracking-tight text-ink tabular-nums">
          {localMembershipPriceLabel(i18n, product)}
        </span>
        {product.seller.taxNote && count > 0 && (
          <span className="text-sm text-muted">{serverText(product.seller.taxNote)}</span>
        )}
      </p>
      {count > 0 && (
        <p className="text-sm text-muted">
          {i18n.t("membership.summary", { count, yearly: yearly ? "yes" : "no" })}
        </p>
      )}
    </div>
  );
}

/** What a member gets and how they pay, as the product page's small print. */
function MembershipNotes({ product }: { product: PublicProduct }) {
  const { t } = useI18n();
  const trials = product.tiers.some((tier) => tier.trialDays > 0);
  return (
    <ul className="space-y-2">
      <NoteItem icon={Repeat}>{t("membership.noteBilling")}</NoteItem>
      {trials && <NoteItem icon={CalendarClock}>{t("membership.noteTrial")}</NoteItem>}
      <NoteItem icon={Download}>
        {t("membership.noteDownloads", { max: MEMBERSHIP_LIMITS.downloadsPerFilePerPeriod })}
      </NoteItem>
      <NoteItem icon={ShieldCheck}>{t("purchase.securePayment")}</NoteItem>
    </ul>
  );
}
