import { ENFORCEMENT_POLICY_PATH, STANDING_PATH } from "../../../contracts/enforcement";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";

/** What happened to the seller's store or product, as their email says it. */
export type StandingNotice =
  | { kind: "warn" }
  | { kind: "restrict" }
  | { kind: "suspend"; revokeDownloads: boolean }
  | { kind: "take-down"; productTitle: string }
  | { kind: "reinstate-seller" }
  | { kind: "reinstate-product"; productTitle: string }
  | { kind: "appeal-upheld"; what: string };

const WORDS: Record<StandingNotice["kind"], { subject: string; heading: string }> = {
  warn: { subject: "A warning about your Flatfee store", heading: "A warning about your store" },
  restrict: { subject: "Your Flatfee store is restricted", heading: "Your store is restricted" },
  suspend: { subject: "Your Flatfee store is suspended", heading: "Your store is suspended" },
  "take-down": { subject: "A product of yours was taken down", heading: "A product was taken down" },
  "reinstate-seller": { subject: "Your Flatfee store is reinstated", heading: "Your store is reinstated" },
  "reinstate-product": { subject: "Your product is reinstated", heading: "Your product is reinstated" },
  "appeal-upheld": { subject: "We answered your appeal", heading: "Your appeal was not granted" },
};

/** The sentence saying what happened and what it means for the store. */
function whatHappened(notice: StandingNotice): string {
  switch (notice.kind) {
    case "warn":
      return "A Flatfee operator reviewed your store and is warning you. Nothing changes for now, but repeated or serious problems lead to a restriction or a suspension.";
    case "restrict":
      return "A Flatfee operator restricted your store: you can't add products and buyers can't buy until it is lifted. Your pages stay public, and your buyers keep their downloads.";
    case "suspend":
      return notice.revokeDownloads
        ? 'A Flatfee operator suspended your store: your store and product pages show "This store is unavailable", nothing can be bought, and your buyers\' download links have been stopped.'
        : 'A Flatfee operator suspended your store: your store and product pages show "This store is unavailable" and nothing can be bought. Your buyers keep their downloads.';
    case "take-down":
      return `A Flatfee operator took down your product "${notice.productTitle}": its page shows "This product is unavailable" and it can't be bought. Your other products are not affected, and its buyers keep their downloads.`;
    case "reinstate-seller":
      return "A Flatfee operator lifted the restriction or suspension of your store: your pages are public and buyers can buy again.";
    case "reinstate-product":
      return `A Flatfee operator reinstated your product "${notice.productTitle}": its page is public and it can be bought again.`;
    case "appeal-upheld":
      return `A Flatfee operator reviewed your appeal of the ${notice.what.toLowerCase()} and kept it in place.`;
  }
}

/**
 * The email a seller gets for every enforcement action and appeal answer: what happened, why (the
 * operator's reason, word for word), and how to appeal (the Standing page) or read the policy.
 */
export function standingEmail(
  appUrl: string,
  to: string,
  notice: StandingNotice,
  reason: string,
): OutgoingEmail {
  const words = WORDS[notice.kind];
  const lifted = notice.kind === "reinstate-seller" || notice.kind === "reinstate-product";
  const paragraphs = [whatHappened(notice), `Why: ${reason}`];
  if (!lifted) {
    paragraphs.push(
      notice.kind === "warn"
        ? "If you think this warning is wrong, reply from your Standing page in Settings."
        : "If you think this is wrong, appeal from your Standing page in Settings: tell us why, and an operator will answer. You can also send a counter-notice if a report claimed your work infringes someone's rights.",
    );
  }
  return {
    to,
    subject: words.subject,
    ...renderEmail({
      preheader: whatHappened(notice).slice(0, 120),
      heading: words.heading,
      paragraphs,
      button: {
        label: lifted ? "See your standing" : "Appeal or see your standing",
        url: `${appUrl}${STANDING_PATH}`,
      },
      links: [{ label: "Flatfee's enforcement policy", url: `${appUrl}${ENFORCEMENT_POLICY_PATH}` }],
    }),
  };
}
