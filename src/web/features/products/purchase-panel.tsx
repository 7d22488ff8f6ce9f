import { Download, FileStack, Mail, ShieldCheck } from "lucide-react";
import { useLocation } from "react-router";
import { CURRENCY_PARAM } from "../../../contracts/currencies";
import type { ProductPrice } from "../../../contracts/discounts";
import type { PublicProduct } from "../../../contracts/products";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { useI18n, useServerText } from "../../lib/i18n";
import { SourceFields } from "../analytics/source-fields";
import { DownloadTermsItems, NoteItem } from "../downloads/download-terms-notes";
import { type ResendAnswer, ResendLinkPanel } from "../downloads/resend-link-panel";
import { BusinessBuyerFields } from "./business-buyer-fields";
import { MembershipPriceLine, MembershipTiers } from "./membership-tiers";
import { AmountField, type BuyerEntry, DiscountCodeForm, FreeClaimForm, PriceLine } from "./price-forms";
import { useStockNotice } from "./stock";

/** The currencies a product (or one of a membership's tiers) has a price in, the one shown among them. */
function currenciesOf(product: PublicProduct): string[] {
  const codes = new Set([product.currency, ...product.prices.map((price) => price.currency)]);
  for (const tier of product.tiers) {
    codes.add(tier.currency);
    for (const price of tier.prices) codes.add(price.currency);
  }
  return [...codes].sort();
}

/**
 * The currencies the product (or one of a membership's tiers) has a price in, as plain links (no script)
 * that set `?currency=`, which the server remembers in a cookie (docs/money.md); the one shown is marked.
 * None when it has one currency.
 */
function CurrencySwitcher({ product }: { product: PublicProduct }) {
  const { t } = useI18n();
  const location = useLocation();
  const currencies = currenciesOf(product);
  if (currencies.length < 2) return null;
  const addressIn = (currency: string) => {
    const query = new URLSearchParams(location.search);
    query.set(CURRENCY_PARAM, currency);
    return `${location.pathname}?${query}`;
  };
  return (
    <nav aria-label={t("purchase.currency")} className="text-sm">
      <ul className="flex flex-wrap gap-x-3 gap-y-1">
        {currencies.map((currency) => (
          <li key={currency}>
            {currency === product.currency ? (
              <span aria-current="true" className="font-semibold text-ink">
                {currency.toUpperCase()}
              </span>
            ) : (
              <a
                href={addressIn(currency)}
                rel="nofollow"
                className="rounded text-muted underline-offset-2 hover:text-ink hover:underline focus-visible:outline-2 focus-visible:outline-offset-2"
              >
                {currency.toUpperCase()}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What the server answered the page's last form post with. */
export interface PurchaseAnswer extends BuyerEntry {
  /** Why Buy Now was refused (sold out, not purchasable, too many, a code that no longer applies). */
  buyRefused?: string;
  resend?: ResendAnswer;
}

/**
 * Buy Now posts a plain form: the server answers 303 to Stripe Checkout, so no script is needed. It
 * carries the buyer's code and, for pay what you want, the amount field.
 */
function BuyForm({
  product,
  code,
  minimumCents,
  answer,
  source,
}: {
  product: PublicProduct;
  code: string | null;
  minimumCents: number;
  answer?: PurchaseAnswer | undefined;
  source?: Record<string, string> | undefined;
}) {
  const { t } = useI18n();
  if (product.soldOut) {
    return (
      <Button size="lg" className="w-full" disabled>
        {t("purchase.soldOut")}
      </Button>
    );
  }
  return (
    <form
      method="post"
      action={`/product/${product.id}/buy`}
      data-buy-now={t("checkout.busy")}
      className="space-y-4"
    >
      {code && <input type="hidden" name="code" value={code} />}
      {/* Checkout is made in the currency the price was shown in (docs/money.md). */}
      <input type="hidden" name="currency" value={product.currency} />
      <SourceFields source={source} />
      {product.priceMode === "flexible" && (
        <AmountField product={product} minimumCents={minimumCents} entry={answer?.amount} />
      )}
      {product.seller.taxNote && product.purchasable && (
        <BusinessBuyerFields product={product} entry={answer?.business} />
      )}
      <Button type="submit" size="lg" className="w-full" disabled={!product.purchasable}>
        {t("purchase.buyNow")}
      </Button>
    </form>
  );
}

/**
 * A membership's panel: the price it starts at and why Subscribe is off when it is; then the tiers
 * with their Subscribe forms, the discount code and the small print (`tiers: "here"`), unless the page
 * shows those itself in a row of their own (`tiers: "apart"`, the full product page). Pay what you want
 * and the free claim do not apply.
 */
function MembershipPanel({
  product,
  quote,
  answer,
  source,
  tiers,
}: {
  product: PublicProduct;
  quote?: ProductPrice | undefined;
  answer?: PurchaseAnswer | undefined;
  source?: Record<string, string> | undefined;
  tiers: "here" | "apart";
}) {
  const serverText = useServerText();
  const reason = product.purchasable ? null : product.unavailableReason;
  return (
    <div className="space-y-5">
      <MembershipPriceLine product={product} />
      <CurrencySwitcher product={product} />
      {reason && (
        <p role="status" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">
          {serverText(reason)}
        </p>
      )}
      {tiers === "here" && (
        <MembershipTiers product={product} quote={quote} source={source} refused={answer?.buyRefused} />
      )}
    </div>
  );
}

/**
 * Price, stock, Buy Now (or why not) and what the buyer gets. `quote` is the price with the code the
 * buyer gave (`?code=`): a fixed price brought to $0, or a product free anyway, asks for an email
 * instead of a payment; a pay-what-you-want product whose minimum is $0 offers both.
 */
export function PurchasePanel({
  product,
  quote,
  answer,
  source,
  tiers = "here",
}: {
  product: PublicProduct;
  quote?: ProductPrice | undefined;
  answer?: PurchaseAnswer | undefined;
  source?: Record<string, string> | undefined;
  /** A membership's tiers: in the panel, or shown apart by the page (MembershipTiers). */
  tiers?: "here" | "apart";
}) {
  const { t, money } = useI18n();
  const serverText = useServerText();
  const notice = useStockNotice()(product);
  if (product.kind === "membership") {
    return <MembershipPanel product={product} quote={quote} answer={answer} source={source} tiers={tiers} />;
  }
  const reason = !product.soldOut && !product.purchasable ? product.unavailableReason : null;
  const applied = quote && quote.refusal === null ? quote : undefined;
  const code = applied?.code ?? null;
  const minimumCents = applied?.priceCents ?? product.priceCents;
  const flexible = product.priceMode === "flexible";
  const freeOnly = !flexible && minimumCents === 0;
  const canClaimFree = minimumCents === 0 && !product.soldOut;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-3">
        <PriceLine product={product} quote={quote} />
        {product.soldOut && (
          <Badge tone="danger" className="font-semibold">
            {t("purchase.soldOutBadge")}
          </Badge>
        )}
      </div>
      <CurrencySwitcher product={product} />
      {notice && <p className="text-sm font-medium text-amber-700">{notice}</p>}
      <div className="space-y-3">
        {answer?.buyRefused && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {serverText(answer.buyRefused)}
          </p>
        )}
        {freeOnly && !product.soldOut ? (
          <FreeClaimForm product={product} code={code} entry={answer?.free} />
        ) : (
          <BuyForm
            product={product}
            code={code}
            minimumCents={minimumCents}
            answer={answer}
            source={source}
          />
        )}
        {flexible && canClaimFree && (
          <div className="border-t border-line pt-4">
            <FreeClaimForm
              product={product}
              code={code}
              entry={answer?.free}
              lead={t("purchase.orFree", { zero: money(0, product.currency, { whole: true }) })}
            />
          </div>
        )}
        {reason && (
          <p role="status" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-muted">
            {serverText(reason)}
          </p>
        )}
        {product.purchasable && product.priceCents > 0 && (
          <DiscountCodeForm product={product} quote={quote} source={source} />
        )}
        <ResendLinkPanel productId={product.id} {...(answer?.resend ? { answer: answer.resend } : {})} />
      </div>
      <ul className="space-y-2 border-t border-line pt-5">
        {product.fileCount > 1 && (
          <NoteItem icon={FileStack}>{t("purchase.filesIncluded", { count: product.fileCount })}</NoteItem>
        )}
        {freeOnly ? (
          <NoteItem icon={Mail}>{t("purchase.emailedLink")}</NoteItem>
        ) : (
          <>
            <NoteItem icon={Download}>{t("purchase.instantDownload")}</NoteItem>
            <NoteItem icon={ShieldCheck}>{t("purchase.securePayment")}</NoteItem>
          </>
        )}
        <DownloadTermsItems />
      </ul>
    </div>
  );
}
