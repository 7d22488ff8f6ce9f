import { productUpdateSubject } from "../../../contracts/audience";
import { DEFAULT_LOCALE, type Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import { unsubscribeHeaders } from "./unsubscribe";

export interface BroadcastContent {
  kind: "message" | "product-update";
  subject: string;
  message: string;
  sellerName: string;
  /**
   * A product update's product (its title as sent): its subject is "New in {product}: {headline}",
   * which each buyer reads in their language. The seller's own words (headline, message) stay as written.
   */
  productTitle?: string | null | undefined;
}

/** A seller's message as paragraphs: each line its own (blank lines only space them). */
export const messageParagraphs = (message: string) =>
  message
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");

/** The subject in the buyer's language: a product update's frame translated, the seller's words as written. */
function subjectIn(content: BroadcastContent, locale: Locale): string {
  if (locale === DEFAULT_LOCALE || content.kind !== "product-update" || !content.productTitle) {
    return content.subject;
  }
  const frame = productUpdateSubject(content.productTitle, "");
  if (!content.subject.startsWith(frame)) return content.subject;
  return translator(locale).t("email.productUpdate.subject", {
    product: content.productTitle,
    headline: content.subject.slice(frame.length),
  });
}

/**
 * One buyer's copy of a seller's email, in the shared layout: the seller's text (its links made
 * links, everything else escaped), a product update's way to the new files (the buyer's library), and
 * the buyer's own unsubscribe link, also as List-Unsubscribe headers so mail apps offer one-click
 * unsubscribe (RFC 8058: a POST to the same address). The frame (button, unsubscribe link, footer)
 * speaks the buyer's language (`locale`: their latest purchase's; the seller's preview is English).
 */
export function broadcastEmail(
  content: BroadcastContent,
  recipient: { to: string; unsubscribeUrl: string; libraryUrl?: string; locale?: Locale },
): OutgoingEmail {
  const locale = recipient.locale ?? DEFAULT_LOCALE;
  const { t } = translator(locale);
  const subject = subjectIn(content, locale);
  const paragraphs = messageParagraphs(content.message);
  const seller = content.sellerName;
  return {
    to: recipient.to,
    subject,
    headers: unsubscribeHeaders(recipient.unsubscribeUrl),
    ...renderEmail({
      locale,
      preheader: paragraphs[0] ?? subject,
      heading: subject,
      paragraphs: [...paragraphs, `— ${seller}`],
      linkify: true,
      ...(content.kind === "product-update" && recipient.libraryUrl
        ? { button: { label: t("email.broadcast.newFiles"), url: recipient.libraryUrl } }
        : {}),
      links: [{ label: t("email.common.unsubscribe", { seller }), url: recipient.unsubscribeUrl }],
      note: t("email.broadcast.note", { seller }),
    }),
  };
}
