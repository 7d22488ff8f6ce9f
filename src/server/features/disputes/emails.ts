import { disputeReasonLabel } from "../../../contracts/disputes";
import { formatMoney } from "../../../contracts/money";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";

/** What the creator's dispute emails say about the dispute (sellers' emails are English). */
export interface DisputeEmailFacts {
  to: string;
  disputeId: string;
  productTitle: string;
  customerEmail: string;
  amountCents: number;
  currency: string;
  reason: string;
  dueBy: Date | null;
  appUrl: string;
}

const DEADLINE = new Intl.DateTimeFormat("en-US", {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: "UTC",
});
/** "November 27, 2026 at 2:00 PM UTC". */
export const formatDeadline = (date: Date) => `${DEADLINE.format(date)} UTC`;

const pageUrl = (facts: DisputeEmailFacts) =>
  `${facts.appUrl}/dashboard/disputes/${encodeURIComponent(facts.disputeId)}`;

/** A buyer's bank opened a dispute: the amount, the reason, the deadline and the page to answer it. */
export function disputeOpenedEmail(facts: DisputeEmailFacts): OutgoingEmail {
  const amount = formatMoney(facts.amountCents, facts.currency);
  const reason = disputeReasonLabel(facts.reason);
  const deadline = facts.dueBy ? formatDeadline(facts.dueBy) : "the deadline Stripe shows";
  return {
    to: facts.to,
    subject: `A sale of ${facts.productTitle} was disputed (${amount})`,
    ...renderEmail({
      preheader: `Answer by ${deadline}.`,
      heading: "A buyer disputed a sale",
      paragraphs: [
        `${facts.customerEmail}'s bank disputed their payment of ${amount} for ${facts.productTitle}. Reason given: ${reason}.`,
        `Stripe has taken the ${amount} (and its dispute fee) from your balance until the bank decides. The buyer's downloads and license key are suspended meanwhile.`,
        `Submit your evidence by ${deadline}. We have assembled it for you (the receipt, the download log, the license checks, what the buyer accepted at checkout): review it and submit it from the dispute's page.`,
      ],
      button: { label: "Review the evidence", url: pageUrl(facts) },
    }),
  };
}

/** The bank decided. */
export function disputeClosedEmail(facts: DisputeEmailFacts, outcome: "won" | "lost"): OutgoingEmail {
  const amount = formatMoney(facts.amountCents, facts.currency);
  const won = outcome === "won";
  return {
    to: facts.to,
    subject: won
      ? `You won the dispute of a sale of ${facts.productTitle}`
      : `You lost the dispute of a sale of ${facts.productTitle}`,
    ...renderEmail({
      preheader: won ? `${amount} is back in your balance.` : "The bank decided for the buyer.",
      heading: won ? "Dispute won" : "Dispute lost",
      paragraphs: won
        ? [
            `The bank decided the dispute of ${facts.customerEmail}'s payment of ${amount} for ${facts.productTitle} in your favour. Stripe returns the ${amount} to your balance.`,
            "The buyer's downloads and license key work again.",
          ]
        : [
            `The bank decided the dispute of ${facts.customerEmail}'s payment of ${amount} for ${facts.productTitle} for the buyer. The ${amount} and the dispute fee stay withdrawn.`,
            "The buyer's downloads and license key stay revoked.",
          ],
      button: { label: "See the dispute", url: pageUrl(facts) },
    }),
  };
}
