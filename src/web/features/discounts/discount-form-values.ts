import { format } from "date-fns";
import { CURRENCY_MESSAGES } from "../../../contracts/currencies";
import {
  DISCOUNT_MESSAGES,
  type DiscountCode,
  type DiscountCodeFields,
  discountCodeInputSchema,
} from "../../../contracts/discounts";
import { formatMoney, minorToDecimal, parseMoney } from "../../../contracts/money";
import { PRODUCT_LIMITS } from "../../../contracts/products";
import { currencySymbol, DASHBOARD_LOCALE } from "../../lib/money";

/** The form as the seller fills it: dates are calendar days in the seller's own time zone. */
export interface DiscountFormValues {
  code: string;
  kind: "percent" | "amount";
  value: string;
  appliesTo: "all" | "chosen";
  productIds: string[];
  /** "yyyy-MM-dd" or "": the code works from the start of this day… */
  startsOn: string;
  /** …through the end of this one. */
  endsOn: string;
  maxUses: string;
  /** On a membership: the first payment only, or every payment. */
  membershipDuration: "once" | "forever";
}

export type DiscountFormField = keyof DiscountFormValues;

export const EMPTY_DISCOUNT_FORM: DiscountFormValues = {
  code: "",
  kind: "percent",
  value: "",
  appliesTo: "all",
  productIds: [],
  startsOn: "",
  endsOn: "",
  maxUses: "",
  membershipDuration: "once",
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight starting `day` (plus `addDays`), as the instant the server stores; "" stays null. */
function localMidnight(day: string, addDays = 0): string | null {
  const match = DAY.exec(day);
  if (!match) return day === "" ? null : day;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  return new Date(year, month - 1, date + addDays).toISOString();
}

/** What the API takes: an end day is inclusive, so the code ends at the next local midnight. */
export function toDiscountFields(values: DiscountFormValues): DiscountCodeFields {
  return {
    code: values.code,
    kind: values.kind,
    value: values.value,
    appliesTo: values.appliesTo,
    productIds: values.appliesTo === "chosen" ? values.productIds : [],
    startsAt: localMidnight(values.startsOn),
    endsAt: localMidnight(values.endsOn, 1),
    maxUses: values.maxUses,
    membershipDuration: values.membershipDuration,
  };
}

/** A saved code back into the form, to edit it; an amount off is an amount of the store currency. */
export function toDiscountFormValues(code: DiscountCode, currency: string): DiscountFormValues {
  return {
    code: code.code,
    kind: code.kind,
    value:
      code.kind === "percent" ? String(code.value) : minorToDecimal(code.value, code.currency ?? currency),
    appliesTo: code.allProducts ? "all" : "chosen",
    productIds: code.productIds,
    startsOn: code.startsAt ? format(new Date(code.startsAt), "yyyy-MM-dd") : "",
    // The last moment the code works is the day it ends on.
    endsOn: code.endsAt ? format(new Date(new Date(code.endsAt).getTime() - 1), "yyyy-MM-dd") : "",
    maxUses: code.maxUses === null ? "" : String(code.maxUses),
    membershipDuration: code.membershipDuration,
  };
}

const FORM_FIELD: Record<keyof DiscountCodeFields, DiscountFormField> = {
  code: "code",
  kind: "kind",
  value: "value",
  appliesTo: "appliesTo",
  productIds: "productIds",
  startsAt: "startsOn",
  endsAt: "endsOn",
  maxUses: "maxUses",
  membershipDuration: "membershipDuration",
  // The server sets the currency (the store's): a problem with it is the amount's.
  currency: "value",
};

/** The API's field problems (`details.fields` of a 400/409) as the form's fields. */
export function formProblemsOf(
  fields: Partial<Record<string, unknown>>,
): Partial<Record<DiscountFormField, string>> {
  const problems: Partial<Record<DiscountFormField, string>> = {};
  for (const [field, message] of Object.entries(fields)) {
    const formField = FORM_FIELD[field as keyof DiscountCodeFields];
    if (formField && typeof message === "string") problems[formField] ??= message;
  }
  return problems;
}

/**
 * What is wrong with an amount off typed in the store currency ("5", "4.99"; "500" in yen, which has no
 * decimals), read with parseMoney; undefined when it is an amount from the smallest unit up to the
 * highest price. US dollars keep the contract's words.
 */
export function amountOffProblem(text: string, currency: string): string | undefined {
  const typed = text.trim();
  if (typed === "") return DISCOUNT_MESSAGES.valueRequired;
  const symbol = currencySymbol(currency);
  const amount = parseMoney(typed.startsWith(symbol) ? typed.slice(symbol.length) : typed, currency);
  if (amount === undefined || amount < 1) {
    return currency === "usd" ? DISCOUNT_MESSAGES.amountInvalid : CURRENCY_MESSAGES.invalidPrice(currency);
  }
  if (amount > PRODUCT_LIMITS.maxPriceCents) {
    return currency === "usd"
      ? DISCOUNT_MESSAGES.amountTooHigh
      : `Amount off must be at most ${formatMoney(PRODUCT_LIMITS.maxPriceCents, currency, DASHBOARD_LOCALE)}`;
  }
  return undefined;
}

/** The form's fields in the order they are on screen: the first with a problem gets the focus. */
const FIELD_ORDER: DiscountFormField[] = [
  "code",
  "kind",
  "value",
  "appliesTo",
  "productIds",
  "startsOn",
  "endsOn",
  "maxUses",
  "membershipDuration",
];

/**
 * The same checks the server makes, before sending: each problem next to its field. In a store selling
 * in another currency than US dollars an amount off is read in it (amountOffProblem); the rest is the
 * contract's schema.
 */
export function discountFormProblems(
  values: DiscountFormValues,
  currency: string,
): Partial<Record<DiscountFormField, string>> {
  const amount = values.kind === "amount" && currency !== "usd";
  // The contract reads an amount as dollars and cents: another currency's amount is checked here.
  const parsed = discountCodeInputSchema.safeParse(
    toDiscountFields(amount ? { ...values, value: "1" } : values),
  );
  const fields: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
  const problems = formProblemsOf(fields);
  const valueProblem = amount ? amountOffProblem(values.value, currency) : undefined;
  if (valueProblem) problems.value = valueProblem;
  const ordered: Partial<Record<DiscountFormField, string>> = {};
  for (const field of FIELD_ORDER) if (problems[field]) ordered[field] = problems[field];
  return ordered;
}
