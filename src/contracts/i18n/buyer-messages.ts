import { AUDIENCE_MESSAGES } from "../audience";
import { BUYER_CURRENCIES, minimumChargeCents, STORE_CURRENCIES } from "../currencies";
import { DISCOUNT_REFUSAL_MESSAGES } from "../discounts";
import { DISPUTE_MESSAGES } from "../disputes";
import { ENFORCEMENT_BUYER_MESSAGES } from "../enforcement";
import { INVOICE_MESSAGES, INVOICE_RULES } from "../invoices";
import { MEMBERSHIP_CHANGE_MESSAGES, MEMBERSHIP_MESSAGES, MEMBERSHIP_STATUS_LABELS } from "../memberships";
import { formatMoney, parseMoney } from "../money";
import { ORDER_MESSAGES } from "../orders";
import { POST_MESSAGES } from "../posts";
import {
  amountBelowMinimumMessage,
  amountExampleMinor,
  FREE_CLAIM_MESSAGES,
  PAY_WHAT_YOU_WANT_MESSAGES,
  PRODUCT_LIMITS,
  PURCHASE_UNAVAILABLE,
  payWhatYouWantMessages,
} from "../products";
import { TAX_MESSAGES, TAX_PRICE_NOTES } from "../tax";
import { DEFAULT_LOCALE } from "./locales";
import type { MessageKey, Translator } from "./translator";

/**
 * The server's words a buyer's page shows as it got them (a refusal, a field's problem, why a download
 * is gone, the store's tax note): the API answers them in English (contracts' constants, tests and
 * sellers' tools read them), and a page in another language shows them through this table, from the
 * English text to its message. A text not in the table is shown as it is. Kept beside the constants it
 * names, so a new buyer-facing message is added here and to the catalogues (buyer-messages.test.ts
 * checks English's catalogue says each exactly as its constant does).
 */
type Render = (i18n: Translator) => string;
const say =
  (key: MessageKey, values?: Record<string, string | number>): Render =>
  (i18n) =>
    i18n.t(key, values);

/** The billing form's fields as INVOICE_MESSAGES.tooLong names them, and their length limits. */
const BILLING_FIELD_NOUNS: Array<[label: string, max: number, noun: MessageKey]> = [
  ["Name", 200, "billing.noun.name"],
  ["Business name", 200, "business.name"],
  ["Address", 200, "billing.noun.line1"],
  ["Address line 2", 200, "billing.noun.line2"],
  ["Postal code", 20, "billing.noun.postalCode"],
  ["City", 100, "billing.noun.city"],
  ["VAT ID", 40, "billing.noun.taxId"],
];

/** Rate limits' words, which live with their limits on the server (checkout, resend, discount codes). */
export const RATE_LIMIT_MESSAGES = {
  checkouts: "Too many checkouts. Please wait a minute.",
  resends: "Too many requests for a new link. Please try again in an hour.",
  codeTries: "Too many tries. Please wait a minute.",
} as const;

/** The currencies a price can be in besides US dollars (buyers' and stores'). */
const OTHER_CURRENCIES = new Set([...BUYER_CURRENCIES, ...STORE_CURRENCIES].filter((code) => code !== "usd"));

/** A price in another currency's pay-what-you-want refusals (payWhatYouWantMessages), as a page says them. */
function payWhatYouWantRefusals(currency: string): Array<readonly [string, Render]> {
  const english = payWhatYouWantMessages(currency);
  const code = currency.toUpperCase();
  return [
    [
      english.amountInvalid,
      (i18n) =>
        i18n.t("message.amountInvalidIn", {
          currency: code,
          example: i18n.money(amountExampleMinor(currency), currency),
        }),
    ],
    [
      english.amountTooHigh,
      (i18n) =>
        i18n.t("message.amountTooHighIn", {
          maximum: i18n.money(PRODUCT_LIMITS.maxFlexiblePriceCents, currency),
        }),
    ],
    [
      english.amountBelowCardMinimum,
      (i18n) =>
        i18n.t("message.amountBelowCardMinimumIn", {
          minimum: i18n.money(minimumChargeCents(currency), currency),
        }),
    ],
  ];
}

/** Every fixed text, with how a page in another language says it. */
export const BUYER_MESSAGES: ReadonlyArray<readonly [english: string, render: Render]> = [
  [ORDER_MESSAGES.linkExpired, say("message.linkExpired")],
  [ORDER_MESSAGES.linkInvalid, say("message.linkInvalid")],
  [ORDER_MESSAGES.limitReached, say("message.limitReached")],
  [ORDER_MESSAGES.fileRemoved, say("message.fileRemoved")],
  [ORDER_MESSAGES.chooseFile, say("message.chooseFile")],
  [ORDER_MESSAGES.windowOver, say("message.windowOver")],
  [ORDER_MESSAGES.refunded, say("message.refunded")],
  [DISPUTE_MESSAGES.buyerSuspended, say("message.disputeSuspended")],
  [DISPUTE_MESSAGES.buyerLost, say("message.disputeLost")],
  [ORDER_MESSAGES.productRemoved, say("message.productRemoved")],
  [ORDER_MESSAGES.resendSent, say("message.resendSent")],
  [ORDER_MESSAGES.notPurchasable, say("message.notPurchasable")],
  [ORDER_MESSAGES.soldOut, say("message.soldOut")],
  [ORDER_MESSAGES.checkoutAlreadyOpen, say("message.checkoutAlreadyOpen")],
  [ORDER_MESSAGES.checkoutInterrupted, say("message.checkoutInterrupted")],
  [ORDER_MESSAGES.processing, say("success.processing")],
  [ORDER_MESSAGES.notFound, say("success.notFound")],
  [MEMBERSHIP_MESSAGES.noAccess, say("message.membershipNoAccess")],
  [MEMBERSHIP_MESSAGES.tierNotOffered, say("message.tierNotOffered")],
  [MEMBERSHIP_MESSAGES.yearlyNotOffered, say("message.yearlyNotOffered")],
  [MEMBERSHIP_MESSAGES.notAMembership, say("message.notAMembership")],
  // The library (features/library): its links, a member's statuses, switches and post emails.
  [ORDER_MESSAGES.libraryLinkExpired, say("message.libraryLinkExpired")],
  [ORDER_MESSAGES.libraryEmailNotVerified, say("message.libraryEmailNotVerified")],
  [MEMBERSHIP_MESSAGES.membershipNotFound, say("message.membershipNotFound")],
  [MEMBERSHIP_STATUS_LABELS.trialing, say("library.status.trialing")],
  [MEMBERSHIP_STATUS_LABELS.active, say("library.status.active")],
  [MEMBERSHIP_STATUS_LABELS.past_due, say("library.status.pastDue")],
  [MEMBERSHIP_STATUS_LABELS.canceling, say("library.status.canceling")],
  [MEMBERSHIP_STATUS_LABELS.ended, say("library.status.ended")],
  [MEMBERSHIP_CHANGE_MESSAGES.sameChoice, say("message.changeSameChoice")],
  [MEMBERSHIP_CHANGE_MESSAGES.notChangeable, say("message.changeNotChangeable")],
  [MEMBERSHIP_CHANGE_MESSAGES.tierUnavailable, say("message.changeTierUnavailable")],
  [MEMBERSHIP_CHANGE_MESSAGES.changed, say("message.membershipSwitched")],
  [POST_MESSAGES.postEmailsOn, say("message.postEmailsOn")],
  [POST_MESSAGES.postEmailsOff, say("message.postEmailsOff")],
  [POST_MESSAGES.postEmailsNeedLink, say("message.postEmailsNeedLink")],
  [PURCHASE_UNAVAILABLE.soldOut, say("purchase.soldOut")],
  [PURCHASE_UNAVAILABLE.sellerPaused, say("message.sellerPaused")],
  [ENFORCEMENT_BUYER_MESSAGES.storeUnavailable, say("message.storeUnavailable")],
  [ENFORCEMENT_BUYER_MESSAGES.productUnavailable, say("message.productUnavailable")],
  [ENFORCEMENT_BUYER_MESSAGES.downloadsRevoked, say("message.downloadsRevoked")],
  [DISCOUNT_REFUSAL_MESSAGES.unknown, say("message.discountUnknown")],
  [DISCOUNT_REFUSAL_MESSAGES.not_started, say("message.discountNotStarted")],
  [DISCOUNT_REFUSAL_MESSAGES.expired, say("message.discountExpired")],
  [DISCOUNT_REFUSAL_MESSAGES.used_up, say("message.discountUsedUp")],
  [DISCOUNT_REFUSAL_MESSAGES.paused, say("message.discountPaused")],
  [DISCOUNT_REFUSAL_MESSAGES.not_for_product, say("message.discountNotForProduct")],
  [DISCOUNT_REFUSAL_MESSAGES.other_currency, say("message.discountOtherCurrency")],
  [PAY_WHAT_YOU_WANT_MESSAGES.amountInvalid, say("message.amountInvalid")],
  [PAY_WHAT_YOU_WANT_MESSAGES.amountTooHigh, say("message.amountTooHigh")],
  [PAY_WHAT_YOU_WANT_MESSAGES.amountBelowCardMinimum, say("message.amountBelowCardMinimum")],
  [PAY_WHAT_YOU_WANT_MESSAGES.amountZero, say("message.amountZero")],
  [PAY_WHAT_YOU_WANT_MESSAGES.freeUseEmail, say("message.freeUseEmail")],
  [FREE_CLAIM_MESSAGES.tooMany, say("message.freeTooMany")],
  [FREE_CLAIM_MESSAGES.notFree, say("message.notFree")],
  ["Please enter a valid email", say("message.invalidEmail")],
  [TAX_MESSAGES.vatNumberShape, say("message.vatNumberShape")],
  [TAX_MESSAGES.vatNumberInvalid, say("message.vatNumberInvalid")],
  [TAX_MESSAGES.vatNumberUnavailable, say("message.vatNumberUnavailable")],
  [TAX_MESSAGES.tooManyVatChecks, say("message.tooManyVatChecks")],
  [TAX_MESSAGES.businessNameRequired, say("message.businessNameRequired")],
  [TAX_MESSAGES.businessNameTooLong, say("message.businessNameTooLong")],
  [TAX_PRICE_NOTES.inclusive, say("tax.inclusive")],
  [TAX_PRICE_NOTES.exclusive, say("tax.exclusive")],
  ["Reverse charge", say("tax.reverseCharge")],
  ["Tax not collected", say("tax.notCollected")],
  ["No tax", say("tax.none")],
  [INVOICE_MESSAGES.linkInvalid, say("message.invoiceLinkInvalid")],
  [INVOICE_MESSAGES.notFound, say("message.invoiceNotFound")],
  [
    INVOICE_MESSAGES.correctionClosed,
    say("message.correctionClosed", { days: INVOICE_RULES.correctionDays }),
  ],
  [INVOICE_MESSAGES.correctionRefunded, say("message.correctionRefunded")],
  [INVOICE_MESSAGES.corrected, say("message.corrected")],
  [INVOICE_MESSAGES.nameRequired, say("message.nameRequired")],
  [INVOICE_MESSAGES.countryShape, say("message.countryShape")],
  [INVOICE_MESSAGES.taxIdShape, say("message.taxIdShape")],
  [INVOICE_MESSAGES.taxIdEuShape, say("message.taxIdEuShape")],
  [INVOICE_MESSAGES.taxIdNotRegistered, say("message.taxIdNotRegistered")],
  [INVOICE_MESSAGES.taxIdCheckUnavailable, say("message.taxIdCheckUnavailable")],
  ...BILLING_FIELD_NOUNS.map(
    ([label, max, noun]) =>
      [
        INVOICE_MESSAGES.tooLong(label, max),
        (i18n: Translator) => i18n.t("message.tooLong", { field: i18n.t(noun), max }),
      ] as const,
  ),
  [AUDIENCE_MESSAGES.unsubscribeInvalid, say("message.unsubscribeInvalid")],
  [RATE_LIMIT_MESSAGES.checkouts, say("message.tooManyCheckouts")],
  [RATE_LIMIT_MESSAGES.resends, say("message.tooManyResends")],
  [RATE_LIMIT_MESSAGES.codeTries, say("message.tooManyCodeTries")],
  ...[...OTHER_CURRENCIES].flatMap((currency) => payWhatYouWantRefusals(currency)),
  ...["usd", ...OTHER_CURRENCIES].map(
    (currency) =>
      [
        MEMBERSHIP_MESSAGES.tierNoPriceIn(currency),
        say("message.tierNoPriceIn", { currency: currency.toUpperCase() }),
      ] as const,
  ),
];

const BY_ENGLISH = new Map<string, Render>(BUYER_MESSAGES);

/**
 * "Please pay at least $5.00." (amountBelowMinimumMessage): the one message with a seller's amount in
 * it, read back in any of our currencies: one pattern per currency, from how English writes its amounts.
 */
const BELOW_MINIMUM = ["usd", ...OTHER_CURRENCIES].map((currency) => {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const sample = formatMoney(12_345, currency);
  const digits = /\d[\d.,]*/.exec(sample)?.[0] ?? "";
  const [before = "", after = ""] = amountBelowMinimumMessage(12_345, currency).split(digits);
  return { currency, pattern: new RegExp(`^${literal(before)}(\\d[\\d.,]*?)${literal(after)}$`) };
});

function belowMinimum(english: string): { cents: number; currency: string } | undefined {
  for (const { currency, pattern } of BELOW_MINIMUM) {
    const amount = pattern.exec(english)?.[1];
    const cents = amount === undefined ? undefined : parseMoney(amount.replace(/,/g, ""), currency);
    if (cents !== undefined) return { cents, currency };
  }
  return undefined;
}

/** A text of the server's, as a page in `i18n`'s language says it; English (and any unknown text) as is. */
export function translateMessage(i18n: Translator, english: string): string {
  if (i18n.locale === DEFAULT_LOCALE) return english;
  const render = BY_ENGLISH.get(english);
  if (render) return render(i18n);
  const below = belowMinimum(english);
  if (below)
    return i18n.t("message.amountBelowMinimum", { minimum: i18n.money(below.cents, below.currency) });
  return english;
}
