import type { Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import { unsubscribeHeaders } from "../audience";

export interface RecoveryEmailContent {
  to: string;
  locale: Locale;
  productTitle: string;
  sellerName: string;
  amountCents: number;
  currency: string;
  /** The way back: /recover/{token}, which makes a fresh checkout of the same product and price. */
  recoverUrl: string;
  /** The buyer's link to stop the seller's emails (footer and List-Unsubscribe headers). */
  unsubscribeUrl: string;
}

/**
 * The one recovery email, in the buyer's language (their checkout's): the product they left, its price
 * as they were about to pay it, a button back to a fresh checkout, why they get it, and the seller's
 * unsubscribe link, also as one-click List-Unsubscribe headers (a promotional email, like a broadcast).
 */
export function recoveryEmail(content: RecoveryEmailContent): OutgoingEmail {
  const { t, money } = translator(content.locale);
  const product = content.productTitle;
  const seller = content.sellerName;
  const price = money(content.amountCents, content.currency);
  const body = t("email.recovery.body", { product, seller, price });
  return {
    to: content.to,
    subject: t("email.recovery.subject", { product }),
    headers: unsubscribeHeaders(content.unsubscribeUrl),
    ...renderEmail({
      locale: content.locale,
      preheader: body,
      heading: t("email.recovery.heading", { product }),
      paragraphs: [body],
      button: { label: t("email.recovery.button"), url: content.recoverUrl },
      links: [{ label: t("email.common.unsubscribe", { seller }), url: content.unsubscribeUrl }],
      note: t("email.recovery.note", { seller }),
    }),
  };
}
