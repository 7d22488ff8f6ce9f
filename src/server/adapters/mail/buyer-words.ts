import type { Translator } from "../../../contracts/i18n/translator";
import { PURCHASE_RULES } from "../../../contracts/orders";
import { type OrderTax, taxRateLabel } from "../../../contracts/tax";

/**
 * The words every email to a buyer shares, in the buyer's language (docs/i18n.md, "Emails"): the
 * catalogue's `email.*` messages, and the pieces several rooms' emails put together (a day, an amount,
 * the download terms, the tax line). English reads exactly as the spec's texts do.
 */

/** A day as the buyer's language writes it ("Nov 27, 2026", "27.11.2026", "2026/11/27"), in UTC. */
export const dayIn = (tr: Translator, date: string | Date): string => tr.date(new Date(date));

/** An amount in its currency, as the buyer's language writes it ("$19.99", "19,99 $", "18,00 €", "￥1,500"). */
export const moneyIn = (tr: Translator, amount: number, currency: string): string =>
  tr.money(amount, currency);

/** Sentences side by side: a space between them, as languages written without spaces do not need. */
export const sentencesIn = (tr: Translator, ...sentences: string[]): string =>
  sentences.filter((sentence) => sentence !== "").join(tr.locale === "ja" ? "" : " ");

/** "Each download link expires in 24 hours. You can download each file up to 3 times until Nov 22, 2026." */
export const downloadTermsIn = (tr: Translator, windowEndsAt: string | Date): string =>
  tr.t("email.download.terms", {
    hours: PURCHASE_RULES.buyerLinkHours,
    max: PURCHASE_RULES.maxDownloads,
    day: dayIn(tr, windowEndsAt),
  });

/** What is left of a purchase: one file's count, or that each of its files has its own. */
export function downloadsLeftIn(tr: Translator, files: { downloadsRemaining: number }[]): string {
  const [only] = files;
  if (files.length === 1 && only) {
    return tr.t("email.download.leftOne", {
      remaining: only.downloadsRemaining,
      max: PURCHASE_RULES.maxDownloads,
    });
  }
  return tr.t("email.download.leftEach", { count: files.length, max: PURCHASE_RULES.maxDownloads });
}

/** The button to the download page: "Download your file", "Download your 3 files". */
export const downloadButtonIn = (tr: Translator, fileCount: number): string =>
  tr.t("email.download.button", { count: Math.max(1, fileCount) });

type TaxForLabel = Pick<
  OrderTax,
  "taxCents" | "taxRate" | "taxType" | "taxJurisdiction" | "taxabilityReason" | "reverseCharge"
>;

/**
 * contracts/tax.ts' taxLabel in the buyer's language: "VAT 19% (DE)", "MwSt. 19 % (DE)", "Reverse
 * charge"; tax types without a word of their own keep their abbreviation (GST, HST...).
 */
export function taxLabelIn(tr: Translator, tax: TaxForLabel): string | null {
  if (tax.reverseCharge) return tr.t("email.tax.reverseCharge");
  if (tax.taxabilityReason === "not_collecting") return tr.t("email.tax.notCollected");
  if (tax.taxCents <= 0) return tax.taxabilityReason ? tr.t("email.tax.none") : null;
  const english = taxRateLabel({ taxType: tax.taxType, taxRate: null, taxJurisdiction: null });
  const name =
    tax.taxType === "vat"
      ? tr.t("email.tax.vat")
      : tax.taxType === "sales_tax"
        ? tr.t("email.tax.salesTax")
        : tax.taxType
          ? english
          : tr.t("email.tax.generic");
  const rated = tax.taxRate ? tr.t("email.tax.rate", { name, rate: tax.taxRate }) : name;
  return tax.taxJurisdiction ? `${rated} (${tax.taxJurisdiction})` : rated;
}

/** "Tax: $3.19 (VAT 19% (DE)), included in the amount paid." */
export function taxLineIn(tr: Translator, tax: TaxForLabel, currency: string): string | null {
  const label = taxLabelIn(tr, tax);
  return label
    ? tr.t("email.common.taxIncluded", { amount: moneyIn(tr, tax.taxCents, currency), label })
    : null;
}
