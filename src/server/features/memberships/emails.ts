import { formatDay } from "../../../contracts/download-terms";
import { formatPrice } from "../../../contracts/money";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import type { MembershipRow } from "./sync-membership";

/** What every membership email names: the membership, and where the member manages it (their library). */
export interface MembershipEmailContext {
  membership: Pick<
    MembershipRow,
    | "customer_email"
    | "product_title"
    | "tier_name"
    | "billing_interval"
    | "amount_cents"
    | "current_period_end"
  >;
  sellerName: string;
  /** The member's library (signed link): their memberships, files, posts, and Manage membership. */
  libraryUrl: string;
}

const per = (interval: "month" | "year") => (interval === "year" ? "year" : "month");
const libraryLink = (context: MembershipEmailContext) => [
  { label: "Your library: files, posts and Manage membership", url: context.libraryUrl },
];

/** A membership began: with a trial, when the first payment comes; else the receipt of the first. */
export function welcomeEmail(context: MembershipEmailContext, trialEnd: Date | null): OutgoingEmail {
  const { membership } = context;
  const price = `${formatPrice(membership.amount_cents)} a ${per(membership.billing_interval)}`;
  return {
    to: membership.customer_email,
    subject: `Welcome to ${membership.product_title}`,
    ...renderEmail({
      preheader: `You are a member of ${membership.product_title} (${membership.tier_name}).`,
      heading: "Welcome, you're a member!",
      paragraphs: [
        `${membership.product_title}, ${membership.tier_name}, from ${context.sellerName}.`,
        trialEnd
          ? `Your free trial runs until ${formatDay(trialEnd)}. Then ${price}, renewing automatically until you cancel.`
          : `${price}, renewing automatically on ${formatDay(membership.current_period_end)} until you cancel.`,
        "Your library has the tier's files and the creator's posts. You can switch tier, update your card or cancel there at any time.",
      ],
      links: libraryLink(context),
      note: `Your email was shared with ${context.sellerName}, the creator you subscribed to. Payments are processed by Stripe.`,
    }),
  };
}

/** A paid period: the receipt, with its tax (inside the amount) and the waiver the member accepted. */
export function paymentReceiptEmail(
  context: MembershipEmailContext,
  payment: {
    amountCents: number;
    periodStart: Date;
    periodEnd: Date;
    orderId: string;
    invoiceUrl?: string;
    /** The tax inside the amount and its label ("VAT 19% (DE)"), when Stripe Tax ran. */
    tax?: { taxCents: number; label: string } | undefined;
    withdrawalWaiver?: string | null | undefined;
  },
): OutgoingEmail {
  const { membership } = context;
  return {
    to: membership.customer_email,
    subject: `Your receipt: ${membership.product_title}`,
    ...renderEmail({
      preheader: `Payment received for ${membership.product_title}.`,
      heading: "Payment received, thank you",
      paragraphs: [
        `${membership.product_title}, ${membership.tier_name}, from ${context.sellerName}.`,
        `Amount paid: ${formatPrice(payment.amountCents)} for ${formatDay(payment.periodStart)} to ${formatDay(payment.periodEnd)}. Order ${payment.orderId}.`,
        ...(payment.tax
          ? [`Tax: ${formatPrice(payment.tax.taxCents)} (${payment.tax.label}), included in the amount paid.`]
          : []),
        ...(payment.withdrawalWaiver
          ? [`When you subscribed you agreed: “${payment.withdrawalWaiver}”`]
          : []),
      ],
      links: [
        ...libraryLink(context),
        ...(payment.invoiceUrl ? [{ label: "Your invoice (PDF)", url: payment.invoiceUrl }] : []),
      ],
      note: "Payment was processed by Stripe.",
    }),
  };
}

/** A renewal failed: access continues through the grace days; the member updates their card. */
export function paymentFailedEmail(
  context: MembershipEmailContext,
  payUrl: string | null,
  accessUntil: Date,
): OutgoingEmail {
  const { membership } = context;
  return {
    to: membership.customer_email,
    subject: `Payment failed: ${membership.product_title}`,
    ...renderEmail({
      preheader: "Your membership payment did not go through. Update your card to keep access.",
      heading: "Your payment did not go through",
      paragraphs: [
        `We could not charge ${formatPrice(membership.amount_cents)} for your ${membership.product_title} membership (${membership.tier_name}).`,
        `Your access continues until ${formatDay(accessUntil)}. Pay with another card before then to keep it; paying later restores it at once.`,
      ],
      ...(payUrl ? { button: { label: "Update your card and pay", url: payUrl } } : {}),
      links: libraryLink(context),
    }),
  };
}

/** The membership was set to end at the period's end (by the member or the creator). */
export function cancelScheduledEmail(context: MembershipEmailContext): OutgoingEmail {
  const { membership } = context;
  return {
    to: membership.customer_email,
    subject: `Membership canceled: ${membership.product_title}`,
    ...renderEmail({
      preheader: `Your membership ends on ${formatDay(membership.current_period_end)}.`,
      heading: "Your membership is canceled",
      paragraphs: [
        `Your ${membership.product_title} membership (${membership.tier_name}) will not renew. You keep access until ${formatDay(membership.current_period_end)}.`,
        "Changed your mind? Resume it from your library before then.",
      ],
      links: libraryLink(context),
    }),
  };
}

/** The membership ended: access is over. */
export function endedEmail(context: MembershipEmailContext): OutgoingEmail {
  const { membership } = context;
  return {
    to: membership.customer_email,
    subject: `Membership ended: ${membership.product_title}`,
    ...renderEmail({
      preheader: `Your ${membership.product_title} membership has ended.`,
      heading: "Your membership has ended",
      paragraphs: [
        `Your ${membership.product_title} membership (${membership.tier_name}) from ${context.sellerName} has ended, and with it access to its files and posts.`,
        "You can subscribe again at any time from the creator's page.",
      ],
      links: libraryLink(context),
    }),
  };
}

/** A yearly membership renews in a week: the member is reminded of the charge to come. */
export function yearlyReminderEmail(context: MembershipEmailContext): OutgoingEmail {
  const { membership } = context;
  return {
    to: membership.customer_email,
    subject: `Your membership renews soon: ${membership.product_title}`,
    ...renderEmail({
      preheader: `${formatPrice(membership.amount_cents)} on ${formatDay(membership.current_period_end)}.`,
      heading: "Your yearly membership renews next week",
      paragraphs: [
        `Your ${membership.product_title} membership (${membership.tier_name}) renews on ${formatDay(membership.current_period_end)} for ${formatPrice(membership.amount_cents)}, charged to your card on file.`,
        "Nothing to do if you want to stay. To switch tier, update your card or cancel, open your library.",
      ],
      links: libraryLink(context),
    }),
  };
}
