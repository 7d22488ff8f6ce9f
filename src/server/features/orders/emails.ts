import type { Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import type { BuyerPurchase } from "../../../contracts/orders";
import type { OrderTax } from "../../../contracts/tax";
import {
  dayIn,
  downloadButtonIn,
  downloadsLeftIn,
  downloadTermsIn,
  moneyIn,
  sentencesIn,
  taxLineIn,
} from "../../adapters/mail/buyer-words";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import { licenseKeyParagraphs } from "../licenses";

/** The discount code a purchase was made with, and what it saved the buyer. */
export interface ReceiptDiscount {
  code: string;
  savedCents: number;
}

/** What a receipt says besides the purchase: in which language, its tax (the order's), its code. */
export interface ReceiptDetails {
  /** The order's `buyer_locale`: the language the buyer bought in. */
  locale: Locale;
  /** The order's tax (order-tax-view.ts), or null when Stripe Tax was not asked. */
  tax: OrderTax | null;
  discount?: ReceiptDiscount | undefined;
}

/** The receipt of a one-time purchase (paid or free), in the buyer's language (docs/i18n.md, "Emails"). */
export function receiptEmail(
  purchase: BuyerPurchase,
  appUrl: string,
  libraryPath: string,
  { locale, tax, discount }: ReceiptDetails,
): OutgoingEmail {
  const tr = translator(locale);
  const { t } = tr;
  const product = purchase.productTitle;
  const seller = purchase.sellerName;
  const paid = {
    amount: moneyIn(tr, purchase.amountCents, purchase.currency),
    day: dayIn(tr, purchase.createdAt),
    orderId: purchase.orderId,
  };
  const taxLine = tax ? taxLineIn(tr, tax, purchase.currency) : null;
  return {
    to: purchase.customerEmail,
    subject: t("email.receipt.subject", { product }),
    ...renderEmail({
      locale,
      preheader: t("email.receipt.preheader", { product }),
      heading: t("email.receipt.heading"),
      paragraphs: [
        t("email.receipt.productFrom", { product, seller }),
        discount
          ? t("email.receipt.amountPaidWithCode", {
              ...paid,
              code: discount.code,
              saved: moneyIn(tr, discount.savedCents, purchase.currency),
            })
          : t("email.receipt.amountPaid", paid),
        ...(taxLine ? [taxLine] : []),
        sentencesIn(tr, downloadTermsIn(tr, purchase.downloadWindowEndsAt), t("email.receipt.libraryFresh")),
        ...licenseKeyParagraphs(purchase.licenseKey, tr),
        // The waiver as the buyer accepted it, in the language Checkout showed it in.
        ...(purchase.withdrawalWaiver
          ? [t("email.receipt.waiver", { waiver: purchase.withdrawalWaiver })]
          : []),
      ],
      ...(purchase.downloadPath
        ? {
            button: {
              label: downloadButtonIn(tr, purchase.files.length),
              url: `${appUrl}${purchase.downloadPath}`,
            },
          }
        : {}),
      links: [
        { label: t("email.common.library"), url: `${appUrl}${libraryPath}` },
        ...(purchase.invoice
          ? [
              { label: t("email.common.invoicePdf"), url: `${appUrl}${purchase.invoice.pdfPath}` },
              { label: t("email.common.billingDetails"), url: `${appUrl}${purchase.invoice.billingPath}` },
            ]
          : []),
      ],
      // A free order ($0, claimed by email) never went through Stripe.
      note: t(purchase.amountCents > 0 ? "email.receipt.notePaid" : "email.receipt.noteFree", { seller }),
    }),
  };
}

/** A fresh download link the buyer asked for (or a free claim of a product they already have). */
export function freshLinkEmail(purchase: BuyerPurchase, appUrl: string, locale: Locale): OutgoingEmail {
  const tr = translator(locale);
  const { t } = tr;
  const product = purchase.productTitle;
  return {
    to: purchase.customerEmail,
    subject: t("email.freshLink.subject", { product }),
    ...renderEmail({
      locale,
      preheader: t("email.freshLink.preheader"),
      heading: t("email.freshLink.heading"),
      paragraphs: [
        t("email.freshLink.asked", { product, seller: purchase.sellerName }),
        sentencesIn(
          tr,
          downloadsLeftIn(tr, purchase.files),
          downloadTermsIn(tr, purchase.downloadWindowEndsAt),
        ),
      ],
      ...(purchase.downloadPath
        ? {
            button: {
              label: downloadButtonIn(tr, purchase.files.length),
              url: `${appUrl}${purchase.downloadPath}`,
            },
          }
        : {}),
      note: t("email.freshLink.note"),
    }),
  };
}

/** A payment for a unit that could no longer be delivered: refunded at once, and the buyer told why. */
export function unavailableRefundEmail(
  to: string,
  productTitle: string,
  amountCents: number,
  currency: string,
  locale: Locale,
): OutgoingEmail {
  const tr = translator(locale);
  const { t } = tr;
  return {
    to,
    subject: t("email.unavailable.subject", { product: productTitle }),
    ...renderEmail({
      locale,
      preheader: t("email.unavailable.preheader"),
      heading: t("email.unavailable.heading"),
      paragraphs: [
        t("email.unavailable.why", { product: productTitle }),
        t("email.unavailable.refunded", { amount: moneyIn(tr, amountCents, currency) }),
      ],
    }),
  };
}

/** The creator refunded a purchase. */
export function refundEmail(
  to: string,
  productTitle: string,
  amountCents: number,
  currency: string,
  locale: Locale,
): OutgoingEmail {
  const tr = translator(locale);
  const { t } = tr;
  return {
    to,
    subject: t("email.refund.subject", { product: productTitle }),
    ...renderEmail({
      locale,
      preheader: t("email.refund.preheader"),
      heading: t("email.refund.heading"),
      paragraphs: [
        t("email.refund.what", { product: productTitle, amount: moneyIn(tr, amountCents, currency) }),
        t("email.refund.linkEnds"),
      ],
    }),
  };
}
