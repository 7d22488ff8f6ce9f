import type { Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import { unsubscribeHeaders } from "../audience";

/**
 * The one email an imported buyer may get (the creator opts in, after seeing it on the import page):
 * the store moved, and their past purchases are in their library here, with a fresh link. It carries
 * the buyer's unsubscribe link like every email from a store to its buyers.
 */
export function importedBuyerEmail(
  store: { name: string; platform: string },
  recipient: { to: string; libraryUrl: string; unsubscribeUrl: string; locale: Locale },
): OutgoingEmail {
  const { t } = translator(recipient.locale);
  const words = { store: store.name, platform: store.platform };
  return {
    to: recipient.to,
    subject: t("email.storeImport.subject", words),
    headers: unsubscribeHeaders(recipient.unsubscribeUrl),
    ...renderEmail({
      locale: recipient.locale,
      preheader: t("email.storeImport.preheader", words),
      heading: t("email.storeImport.heading", words),
      paragraphs: [t("email.storeImport.moved", words), t("email.storeImport.rules")],
      button: { label: t("email.common.library"), url: recipient.libraryUrl },
      links: [
        { label: t("email.common.unsubscribe", { seller: store.name }), url: recipient.unsubscribeUrl },
      ],
    }),
  };
}
