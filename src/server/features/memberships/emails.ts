import { type Translator, translator } from "../../../contracts/i18n/translator";
import type { OrderTax } from "../../../contracts/tax";
import { dayIn, moneyIn, taxLineIn } from "../../adapters/mail/buyer-words";
import { renderEmail } from "../../adapters/mail/layout";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import type { MembershipRow } from "./sync-membership";

/**
 * What every membership email names: the membership, and where the member manages it (their library).
 * Each speaks the member's language (`buyer_locale`, their Subscribe's; docs/i18n.md, "Emails").
 */
export interface MembershipEmailContext {
  membership: Pick<
    MembershipRow,
    | "customer_email"
    | "product_title"
    | "tier_name"
    | "billing_interval"
    | "amount_cents"
    | "currency"
    | "current_period_end"
    | "buyer_locale"
  >;
  sellerName: string;
  /** The member's library (signed link): their memberships, files, posts, and Manage membership. */
  libraryUrl: string;
}

const libraryLink = (tr: Translator, context: MembershipEmailContext) => [
  { label: tr.t("email.membership.library"), url: context.libraryUrl },
];

/** The membership's words: its translator, and the names every email uses. */
function wordsOf(context: MembershipEmailContext) {
  const { membership } = context;
  const tr = translator(membership.buyer_locale);
  const names = { product: membership.product_title, tier: membership.tier_name, seller: context.sellerName };
  return { tr, t: tr.t, locale: tr.locale, names, membership };
}

/**
 * A membership began: with a trial, when the first payment comes; else the receipt of the first. A member
 * paying in their own currency through Adaptive Pricing (`paysIn`, the subscription's presentment
 * currency) is told each payment is converted from the price on its day.
 */
export function welcomeEmail(
  context: MembershipEmailContext,
  trialEnd: Date | null,
  paysIn?: string | undefined,
): OutgoingEmail {
  const { tr, t, locale, names, membership } = wordsOf(context);
  const amount = moneyIn(tr, membership.amount_cents, membership.currency);
  const price =
    membership.billing_interval === "year"
      ? t("email.membership.perYear", { price: amount })
      : t("email.membership.perMonth", { price: amount });
  return {
    to: membership.customer_email,
    subject: t("email.welcome.subject", names),
    ...renderEmail({
      locale,
      preheader: t("email.welcome.preheader", names),
      heading: t("email.welcome.heading"),
      paragraphs: [
        t("email.membership.what", names),
        trialEnd
          ? t("email.welcome.trial", { day: dayIn(tr, trialEnd), price })
          : t("email.welcome.renews", { price, day: dayIn(tr, membership.current_period_end) }),
        ...(paysIn && paysIn !== membership.currency
          ? [t("email.welcome.paysIn", { currency: paysIn.toUpperCase() })]
          : []),
        t("email.welcome.library"),
      ],
      links: libraryLink(tr, context),
      note: t("email.welcome.note", names),
    }),
  };
}

/**
 * A paid period: the receipt of what the member paid (in the currency they paid in), with its tax (inside
 * the amount, in the subscription's currency as Stripe Tax counts it) and the waiver the member accepted.
 */
export function paymentReceiptEmail(
  context: MembershipEmailContext,
  payment: {
    /** What the member paid, in the currency they paid in (their own with Adaptive Pricing). */
    amountCents: number;
    currency: string;
    periodStart: Date;
    periodEnd: Date;
    orderId: string;
    invoiceUrl?: string;
    /** The order's tax (inside the amount), or null when Stripe Tax was not asked. */
    tax?: OrderTax | null | undefined;
    withdrawalWaiver?: string | null | undefined;
  },
): OutgoingEmail {
  const { tr, t, locale, names, membership } = wordsOf(context);
  const taxLine = payment.tax ? taxLineIn(tr, payment.tax, membership.currency) : null;
  return {
    to: membership.customer_email,
    subject: t("email.receipt.subject", names),
    ...renderEmail({
      locale,
      preheader: t("email.periodReceipt.preheader", names),
      heading: t("email.periodReceipt.heading"),
      paragraphs: [
        t("email.membership.what", names),
        t("email.periodReceipt.amountPaid", {
          amount: moneyIn(tr, payment.amountCents, payment.currency),
          start: dayIn(tr, payment.periodStart),
          end: dayIn(tr, payment.periodEnd),
          orderId: payment.orderId,
        }),
        ...(taxLine ? [taxLine] : []),
        ...(payment.withdrawalWaiver
          ? [t("email.periodReceipt.waiver", { waiver: payment.withdrawalWaiver })]
          : []),
      ],
      links: [
        ...libraryLink(tr, context),
        ...(payment.invoiceUrl ? [{ label: t("email.common.invoicePdf"), url: payment.invoiceUrl }] : []),
      ],
      note: t("email.periodReceipt.note"),
    }),
  };
}

/** A renewal failed: access continues through the grace days; the member updates their card. */
export function paymentFailedEmail(
  context: MembershipEmailContext,
  payUrl: string | null,
  accessUntil: Date,
): OutgoingEmail {
  const { tr, t, locale, names, membership } = wordsOf(context);
  return {
    to: membership.customer_email,
    subject: t("email.paymentFailed.subject", names),
    ...renderEmail({
      locale,
      preheader: t("email.paymentFailed.preheader"),
      heading: t("email.paymentFailed.heading"),
      paragraphs: [
        t("email.paymentFailed.couldNotCharge", {
          ...names,
          amount: moneyIn(tr, membership.amount_cents, membership.currency),
        }),
        t("email.paymentFailed.accessUntil", { day: dayIn(tr, accessUntil) }),
      ],
      ...(payUrl ? { button: { label: t("email.paymentFailed.button"), url: payUrl } } : {}),
      links: libraryLink(tr, context),
    }),
  };
}

/** The membership was set to end at the period's end (by the member or the creator). */
export function cancelScheduledEmail(context: MembershipEmailContext): OutgoingEmail {
  const { tr, t, locale, names, membership } = wordsOf(context);
  const day = dayIn(tr, membership.current_period_end);
  return {
    to: membership.customer_email,
    subject: t("email.canceled.subject", names),
    ...renderEmail({
      locale,
      preheader: t("email.canceled.preheader", { day }),
      heading: t("email.canceled.heading"),
      paragraphs: [t("email.canceled.willNotRenew", { ...names, day }), t("email.canceled.resume")],
      links: libraryLink(tr, context),
    }),
  };
}

/** The membership ended: access is over. */
export function endedEmail(context: MembershipEmailContext): OutgoingEmail {
  const { tr, t, locale, names, membership } = wordsOf(context);
  return {
    to: membership.customer_email,
    subject: t("email.ended.subject", names),
    ...renderEmail({
      locale,
      preheader: t("email.ended.preheader", names),
      heading: t("email.ended.heading"),
      paragraphs: [t("email.ended.what", names), t("email.ended.again")],
      links: libraryLink(tr, context),
    }),
  };
}

/** A yearly membership renews in a week: the member is reminded of the charge to come. */
export function yearlyReminderEmail(context: MembershipEmailContext): OutgoingEmail {
  const { tr, t, locale, names, membership } = wordsOf(context);
  const charge = {
    amount: moneyIn(tr, membership.amount_cents, membership.currency),
    day: dayIn(tr, membership.current_period_end),
  };
  return {
    to: membership.customer_email,
    subject: t("email.reminder.subject", names),
    ...renderEmail({
      locale,
      preheader: t("email.reminder.preheader", charge),
      heading: t("email.reminder.heading"),
      paragraphs: [t("email.reminder.renews", { ...names, ...charge }), t("email.reminder.nothingToDo")],
      links: libraryLink(tr, context),
    }),
  };
}
