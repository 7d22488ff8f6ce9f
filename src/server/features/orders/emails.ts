import {
  downloadButtonLabel,
  downloadsLeftSummary,
  downloadTerms,
  formatDay,
} from "../../../contracts/download-terms";
import { formatPrice } from "../../../contracts/money";
import type { BuyerPurchase } from "../../../contracts/orders";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import { licenseKeyParagraphs } from "../licenses";

/** The discount code a purchase was made with, and what it saved the buyer. */
export interface ReceiptDiscount {
  code: string;
  savedCents: number;
}

export function receiptEmail(
  purchase: BuyerPurchase,
  appUrl: string,
  libraryPath: string,
  discount?: ReceiptDiscount,
): OutgoingEmail {
  return {
    to: purchase.customerEmail,
    subject: `Your receipt: ${purchase.productTitle}`,
    ...renderEmail({
      preheader: `Thanks for buying ${purchase.productTitle}. Your download is ready.`,
      heading: "Thanks for your purchase!",
      paragraphs: [
        `${purchase.productTitle} from ${purchase.sellerName}`,
        `Amount paid: ${formatPrice(purchase.amountCents)}${discount ? ` with code ${discount.code} (you saved ${formatPrice(discount.savedCents)})` : ""} on ${formatDay(purchase.createdAt)}. Order ${purchase.orderId}.`,
        ...(purchase.tax
          ? [
              `Tax: ${formatPrice(purchase.tax.taxCents)} (${purchase.tax.label}), included in the amount paid.`,
            ]
          : []),
        `${downloadTerms(purchase.downloadWindowEndsAt)} Your library always has a fresh link.`,
        ...licenseKeyParagraphs(purchase.licenseKey),
        ...(purchase.withdrawalWaiver ? [`Before paying you agreed: “${purchase.withdrawalWaiver}”`] : []),
      ],
      ...(purchase.downloadPath
        ? {
            button: {
              label: downloadButtonLabel(purchase.files.length),
              url: `${appUrl}${purchase.downloadPath}`,
            },
          }
        : {}),
      links: [
        { label: "All your purchases (your library)", url: `${appUrl}${libraryPath}` },
        ...(purchase.invoice
          ? [
              { label: "Your invoice (PDF)", url: `${appUrl}${purchase.invoice.pdfPath}` },
              { label: "Correct your billing details", url: `${appUrl}${purchase.invoice.billingPath}` },
            ]
          : []),
      ],
      // A free order ($0, claimed by email) never went through Stripe.
      note: `Your email was shared with ${purchase.sellerName}, the creator you bought from.${purchase.amountCents > 0 ? " Payment was processed by Stripe." : ""}`,
    }),
  };
}

export function freshLinkEmail(purchase: BuyerPurchase, appUrl: string): OutgoingEmail {
  return {
    to: purchase.customerEmail,
    subject: `Your download link: ${purchase.productTitle}`,
    ...renderEmail({
      preheader: "Here is a fresh download link.",
      heading: "Your new download link",
      paragraphs: [
        `You asked for a new link to ${purchase.productTitle} from ${purchase.sellerName}.`,
        `${downloadsLeftSummary(purchase.files)} ${downloadTerms(purchase.downloadWindowEndsAt)}`,
      ],
      ...(purchase.downloadPath
        ? {
            button: {
              label: downloadButtonLabel(purchase.files.length),
              url: `${appUrl}${purchase.downloadPath}`,
            },
          }
        : {}),
      note: "If you did not ask for this link, you can ignore this email.",
    }),
  };
}

export function unavailableRefundEmail(to: string, productTitle: string, amountCents: number): OutgoingEmail {
  return {
    to,
    subject: `Refunded: ${productTitle}`,
    ...renderEmail({
      preheader: "We could not deliver your purchase, so you were refunded in full.",
      heading: "Sorry: this product was no longer available",
      paragraphs: [
        `Your payment for ${productTitle} arrived after the last copy sold out (or the product was removed).`,
        `We refunded the full ${formatPrice(amountCents)} right away. Depending on your bank it shows up within 5 to 10 days.`,
      ],
    }),
  };
}

export function refundEmail(to: string, productTitle: string, amountCents: number): OutgoingEmail {
  return {
    to,
    subject: `Refund issued: ${productTitle}`,
    ...renderEmail({
      preheader: "Your purchase was refunded.",
      heading: "Your refund is on its way",
      paragraphs: [
        `The creator refunded your purchase of ${productTitle} (${formatPrice(amountCents)}).`,
        "The download link of this purchase no longer works. Depending on your bank the refund shows up within 5 to 10 days.",
      ],
    }),
  };
}
