import { STORE_EXPORT_RULES } from "../../../contracts/store-export";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";

const DAY = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** The archive is ready: the signed link, how long it works and that it is private (sellers' emails are English). */
export function exportReadyEmail(facts: {
  to: string;
  storeName: string | null;
  url: string;
  expiresAt: Date;
}): OutgoingEmail {
  const until = `${DAY.format(facts.expiresAt)} UTC`;
  const store = facts.storeName ? `${facts.storeName}'s` : "your store's";
  return {
    to: facts.to,
    subject: "Your Flatfee store export is ready",
    ...renderEmail({
      preheader: `Download it until ${until}.`,
      heading: "Your store export is ready",
      paragraphs: [
        `The archive of ${store} products with their files and covers, customers, orders, license keys, memberships, posts, invoices, discount codes, webhooks and analytics is one ZIP file, ready to download.`,
        `The link works until ${until} (${STORE_EXPORT_RULES.keepDays} days); then the archive is deleted. Anyone with the link can download it, so keep it to yourself. You can export again from Settings at any time.`,
      ],
      button: { label: "Download your store", url: facts.url },
    }),
  };
}
