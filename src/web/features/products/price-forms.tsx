import { Tag } from "lucide-react";
import type { ProductPrice } from "../../../contracts/discounts";
import { minorToDecimal } from "../../../contracts/money";
import { PRODUCT_LIMITS, type PublicProduct } from "../../../contracts/products";
import { Button } from "../../components/ui/button";
import { FieldError, fieldErrorProps } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { useI18n, useServerText } from "../../lib/i18n";
import { currencySymbol } from "../../lib/money";
import { SourceFields } from "../analytics/source-fields";
import { localPriceLabel } from "./membership-price";

/** What the buyer typed in the product page's forms, sent back with the server's answer. */
export interface BuyerEntry {
  /** The amount typed for a pay-what-you-want product, and why it was refused. */
  amount?: { value: string; problem?: string | undefined };
  /** The email typed in "Email me the download", and why it was refused. */
  free?: { email: string; problem?: string | undefined };
  /** A business buyer's name and VAT number, and why one of them was refused. */
  business?: {
    businessName: string;
    vatNumber: string;
    problem?: { field: "businessName" | "vatNumber"; message: string } | undefined;
  };
}

/**
 * The price in the product's currency: "$19.99", "$5.00+" for pay what you want, or "Free"; with a code
 * that applies, the original struck through beside the new one.
 */
export function PriceLine({ product, quote }: { product: PublicProduct; quote?: ProductPrice | undefined }) {
  const i18n = useI18n();
  const { t, money } = i18n;
  const serverText = useServerText();
  const discounted = quote && quote.refusal === null && quote.discountCents > 0;
  const current = discounted ? { ...product, priceCents: quote.priceCents } : product;
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
      {discounted && (
        <s className="text-xl font-semibold text-muted tabular-nums">
          <span className="sr-only">{t("price.was")} </span>
          {localPriceLabel(i18n, product)}
        </s>
      )}
      <span className="text-3xl font-bold tracking-tight text-ink tabular-nums">
        {localPriceLabel(i18n, current)}
      </span>
      {discounted && (
        <span className="rounded-full bg-emerald-50 px-2.5 py-0.5 text-sm font-medium text-emerald-800">
          {t("price.codeOff", {
            code: quote.code ?? "",
            amount: money(quote.discountCents, product.currency),
          })}
        </span>
      )}
      {product.seller.taxNote && current.priceCents > 0 && (
        <span className="text-sm text-muted">{serverText(product.seller.taxNote)}</span>
      )}
    </p>
  );
}

/**
 * "Have a discount code?": a GET form that loads the page again with `?code=`, which shows the new
 * price (or why the code does not apply) and carries the code into Buy Now. Open when a code was given.
 */
export function DiscountCodeForm({
  product,
  quote,
  source,
}: {
  product: PublicProduct;
  quote?: ProductPrice | undefined;
  /** Where the visit came from: the reloaded page keeps it (features/analytics/source-fields.tsx). */
  source?: Record<string, string> | undefined;
}) {
  const { t } = useI18n();
  const serverText = useServerText();
  const id = `code-${product.id}`;
  const refusal = quote?.refusal?.message;
  return (
    <details open={quote?.code ? true : undefined} className="group rounded-xl border border-line bg-white">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-xl px-4 py-3 text-sm font-medium text-ink hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
        <Tag className="size-4 text-muted" aria-hidden="true" />
        {t("discount.question")}
      </summary>
      <form method="get" action={`/product/${product.id}`} className="space-y-2 px-4 pb-4">
        <SourceFields source={source} />
        <label htmlFor={id} className="sr-only">
          {t("discount.label")}
        </label>
        <div className="flex gap-2">
          <Input
            id={id}
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            placeholder={t("discount.placeholder")}
            defaultValue={quote?.code ?? undefined}
            className="uppercase"
            {...fieldErrorProps(`${id}-problem`, refusal)}
          />
          <Button type="submit" variant="secondary">
            {t("discount.apply")}
          </Button>
        </div>
        {refusal && (
          <p id={`${id}-problem`} role="alert" className="text-sm text-red-700">
            {t("discount.fullPriceApplies", { refusal: serverText(refusal) })}
          </p>
        )}
      </form>
    </details>
  );
}

/** The amount a pay-what-you-want buyer pays, inside the Buy Now form, filled with the suggestion. */
export function AmountField({
  product,
  minimumCents,
  entry,
}: {
  product: PublicProduct;
  minimumCents: number;
  entry?: BuyerEntry["amount"];
}) {
  const { t, money } = useI18n();
  const serverText = useServerText();
  const id = `amount-${product.id}`;
  const suggested = Math.max(product.suggestedPriceCents ?? minimumCents, minimumCents);
  const problem = entry?.problem;
  const currency = product.currency;
  const symbol = currencySymbol(currency);
  const max = money(PRODUCT_LIMITS.maxFlexiblePriceCents, currency, { whole: true });
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {t("amount.label", { currency: currency.toUpperCase() })}
      </label>
      <div className="relative">
        <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted">
          {symbol}
        </span>
        <Input
          id={id}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={entry?.value ?? minorToDecimal(suggested, currency)}
          className="h-11 text-base tabular-nums"
          style={{ paddingLeft: `calc(1.25rem + ${symbol.length}ch)` }}
          {...fieldErrorProps(`${id}-problem`, problem, `${id}-hint`)}
        />
      </div>
      <p id={`${id}-hint`} className="text-sm text-muted">
        {minimumCents === 0
          ? t("amount.hintAny", { zero: money(0, currency, { whole: true }), max })
          : t("amount.hintMinimum", { minimum: money(minimumCents, currency), max })}
      </p>
      <FieldError id={`${id}-problem`} message={problem && serverText(problem)} />
    </div>
  );
}

/**
 * "Email me the download": a product the buyer gets for $0 is sent to their email, without Stripe.
 * The server creates the order and answers "Check your email".
 */
export function FreeClaimForm({
  product,
  code,
  entry,
  lead,
}: {
  product: PublicProduct;
  code?: string | null | undefined;
  entry?: BuyerEntry["free"];
  /** Above the field, when the form is the second way to get the product. */
  lead?: string;
}) {
  const { t } = useI18n();
  const serverText = useServerText();
  const id = `free-${product.id}`;
  const problem = entry?.problem && serverText(entry.problem);
  return (
    <form method="post" action={`/product/${product.id}/free`} noValidate className="space-y-3">
      {lead && <p className="text-sm font-medium text-ink">{lead}</p>}
      {code && <input type="hidden" name="code" value={code} />}
      <div className="space-y-1.5">
        <label htmlFor={id} className="text-sm font-medium text-ink">
          {t("free.emailLabel")}
        </label>
        <Input
          id={id}
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          required
          defaultValue={entry?.email}
          className="h-11 text-base"
          {...fieldErrorProps(`${id}-problem`, problem)}
        />
        <FieldError id={`${id}-problem`} message={problem} />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={!product.purchasable}>
        {t("free.submit")}
      </Button>
    </form>
  );
}
