import {
  checkTiers,
  MEMBERSHIP_LIMITS,
  MEMBERSHIP_MESSAGES,
  type Tier,
  type TierCurrencyPriceInput,
  type TierInput,
  tierInputSchema,
  tierPriceMessages,
  yearlySavingPercent,
} from "../../../contracts/memberships";
import { minorToDecimal, parseMoney } from "../../../contracts/money";
import type { FileItem } from "./product-file-list";
import { newRowKey, type OtherPriceRow } from "./product-form";

/**
 * One tier as the product form holds it: the typed text of each field, and the files it gives as the
 * keys of the form's file rows (FileItem.key), so a file chosen in this form and not uploaded yet can
 * be ticked too. `id` is the saved tier's (the edit page sends it back: its members stay on it).
 */
export type TierFormValues = {
  key: string;
  id?: string;
  name: string;
  description: string;
  monthlyPrice: string;
  /** Empty: no yearly price (members pay monthly only). */
  yearlyPrice: string;
  trialDays: string;
  /** Closed to new members (the edit page's switch); members already on it keep it. */
  closed: boolean;
  fileKeys: string[];
  /** Fixed prices in other currencies: a monthly amount (`price`) and, with a yearly price, `yearly`. */
  prices: OtherPriceRow[];
};

/** A tier field a message can be shown at (and focused). */
export type TierField =
  | "name"
  | "description"
  | "monthlyPrice"
  | "yearlyPrice"
  | "trialDays"
  | "files"
  | "prices";

/**
 * What stops the tier list from being saved: the contract's message, and the tier and field it is about
 * when one is (for its prices in other currencies, the row too when known).
 */
export type TierProblem = { message: string; index?: number; field?: TierField; row?: number };

let nextKey = 0;
const newKey = () => `tier-${++nextKey}`;

/** A blank tier, as "Add tier" makes it. */
export function newTier(): TierFormValues {
  return {
    key: newKey(),
    name: "",
    description: "",
    monthlyPrice: "",
    yearlyPrice: "",
    trialDays: "0",
    closed: false,
    fileKeys: [],
    prices: [],
  };
}

/**
 * A saved membership's tiers as the edit form shows them: prices as plain decimals of the store currency
 * ("5.00", "500" for JPY), files by the rows' keys.
 */
export function tierFormValues(tiers: Tier[], files: FileItem[], currency: string): TierFormValues[] {
  const keyOf = new Map(files.flatMap((file) => (file.kind === "existing" ? [[file.id, file.key]] : [])));
  return tiers.map((tier) => ({
    key: newKey(),
    id: tier.id,
    name: tier.name,
    description: tier.description,
    monthlyPrice: minorToDecimal(tier.monthlyPriceCents, currency),
    yearlyPrice: tier.yearlyPriceCents === null ? "" : minorToDecimal(tier.yearlyPriceCents, currency),
    trialDays: String(tier.trialDays),
    closed: tier.closed,
    fileKeys: tier.fileIds.flatMap((fileId) => {
      const key = keyOf.get(fileId);
      return key ? [key] : [];
    }),
    prices: tier.prices.map((price) => ({
      key: newRowKey(),
      currency: price.currency,
      price: minorToDecimal(price.monthlyPriceCents, price.currency),
      yearly: price.yearlyPriceCents === null ? "" : minorToDecimal(price.yearlyPriceCents, price.currency),
    })),
  }));
}

/**
 * A tier's other prices as the API takes them: the monthly amount, and the yearly one only while the
 * tier has a yearly price (its yearly fields are hidden otherwise, and what they held is not sent).
 */
function tierPriceInputs(tier: TierFormValues): TierCurrencyPriceInput[] {
  const yearly = tier.yearlyPrice.trim() !== "";
  return tier.prices.map((row) => ({
    currency: row.currency,
    monthly: row.price.trim(),
    yearly: yearly ? (row.yearly ?? "").trim() : null,
  }));
}

/** A typed number of days as the API takes it: a number when it is one, else the text (the server says why not). */
function trialDaysInput(text: string): string | number {
  const trimmed = text.trim();
  if (trimmed === "") return 0;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The tier list as the API takes it (`tiers` of a create or an edit), once the form's new files are
 * uploaded (`uploadIds`, in the order of newFilesOf): each tier's files in the product's file order,
 * a saved file by its `id`, a file uploaded with this save by its `uploadId`. Files no longer in the
 * list are left out.
 */
export function tierInputs(tiers: TierFormValues[], files: FileItem[], uploadIds: string[]): TierInput[] {
  let next = 0;
  const refOf = new Map<string, { id: string } | { uploadId: string }>();
  for (const file of files) {
    refOf.set(file.key, file.kind === "existing" ? { id: file.id } : { uploadId: uploadIds[next++] ?? "" });
  }
  return tiers.map((tier) => ({
    ...(tier.id ? { id: tier.id } : {}),
    name: tier.name,
    description: tier.description,
    monthlyPrice: tier.monthlyPrice,
    yearlyPrice: tier.yearlyPrice.trim() === "" ? null : tier.yearlyPrice,
    trialDays: trialDaysInput(tier.trialDays),
    closed: tier.closed,
    files: files.filter((file) => tier.fileKeys.includes(file.key)).map((file) => refOf.get(file.key)!),
    prices: tierPriceInputs(tier),
  }));
}

/** The tier list with placeholder upload ids for the files not uploaded yet: what the checks run on before Save. */
export function pendingTierInputs(tiers: TierFormValues[], files: FileItem[]): TierInput[] {
  return tierInputs(
    tiers,
    files,
    files.map((_, index) => `pending-${index}`),
  );
}

const FIELD_OF_MESSAGE: Partial<Record<string, TierField>> = {
  [MEMBERSHIP_MESSAGES.tierNameMissing]: "name",
  [MEMBERSHIP_MESSAGES.tierNameTooLong]: "name",
  [MEMBERSHIP_MESSAGES.tierNameTwice]: "name",
  [MEMBERSHIP_MESSAGES.tierDescriptionTooLong]: "description",
  [MEMBERSHIP_MESSAGES.monthlyPriceMissing]: "monthlyPrice",
  [MEMBERSHIP_MESSAGES.trialInvalid]: "trialDays",
  [MEMBERSHIP_MESSAGES.tierFileUnknown]: "files",
};

/** The first problem of one tier on its own (open, so "all closed" is not its problem). */
function problemOfTier(input: TierInput, currency: string): string | undefined {
  const checked = checkTiers([tierInputSchema.parse({ ...input, closed: false })], currency);
  return "problem" in checked ? checked.problem : undefined;
}

/**
 * What the server would refuse in the tier list, in its words (contracts/memberships.ts `checkTiers`,
 * prices in the store currency), with the tier and field it is about: the first tier with a problem,
 * its name when another tier already has it. None for a list that is fine.
 */
export function tierProblem(
  tiers: TierFormValues[],
  files: FileItem[],
  currency: string,
): TierProblem | undefined {
  const inputs = pendingTierInputs(tiers, files);
  const checked = checkTiers(
    inputs.map((input) => tierInputSchema.parse(input)),
    currency,
  );
  if ("value" in checked) return undefined;
  const message = checked.problem;
  if (message === MEMBERSHIP_MESSAGES.tierNameTwice) {
    const seen = new Set<string>();
    const index = inputs.findIndex((input) => {
      const name = input.name.trim().toLowerCase();
      if (seen.has(name)) return true;
      seen.add(name);
      return false;
    });
    return index < 0 ? { message } : { message, index, field: "name" };
  }
  const index = inputs.findIndex((input) => problemOfTier(input, currency) === message);
  if (index < 0) return { message };
  const input = inputs[index]!;
  if (problemOfTier({ ...input, prices: [] }, currency) !== message) {
    return { message, index, field: "prices", row: otherPriceRowOf(input, message, currency) };
  }
  if (Object.values(tierPriceMessages(currency)).includes(message)) {
    const monthlyAlone = problemOfTier({ ...input, yearlyPrice: null }, currency);
    return { message, index, field: monthlyAlone === message ? "monthlyPrice" : "yearlyPrice" };
  }
  const field = FIELD_OF_MESSAGE[message];
  return field ? { message, index, field } : { message, index };
}

/**
 * The row of a tier's other prices a message is about: the second of two in one currency, else the first
 * refused alone with it; undefined when it is about the whole list (too many).
 */
function otherPriceRowOf(input: TierInput, message: string, currency: string): number | undefined {
  const prices = input.prices ?? [];
  const twice = prices.findIndex((price, at) =>
    prices
      .slice(0, at)
      .some((before) => before.currency.trim().toLowerCase() === price.currency.trim().toLowerCase()),
  );
  if (twice >= 0 && problemOfTier({ ...input, prices: prices.slice(0, twice + 1) }, currency) === message) {
    return twice;
  }
  const alone = prices.findIndex(
    (price) => problemOfTier({ ...input, prices: [price] }, currency) === message,
  );
  return alone >= 0 ? alone : undefined;
}

/**
 * "Save 16%": what the typed yearly price saves against twelve monthly payments, for the hint beside
 * it. None while either price is not a price, or when the year saves nothing.
 */
export function yearlySavingLabel(
  monthlyPrice: string,
  yearlyPrice: string,
  currency: string,
): string | undefined {
  if (yearlyPrice.trim() === "") return undefined;
  const monthly = parseMoney(monthlyPrice, currency);
  const yearly = parseMoney(yearlyPrice, currency);
  if (monthly === undefined || yearly === undefined || monthly === 0) return undefined;
  const percent = yearlySavingPercent(monthly, yearly);
  return percent > 0 ? `Save ${percent}%` : undefined;
}

/** The list with one tier moved by `by` places (-1 up, 1 down). */
export function moveTier(tiers: TierFormValues[], key: string, by: -1 | 1): TierFormValues[] {
  const from = tiers.findIndex((tier) => tier.key === key);
  const to = from + by;
  if (from < 0 || to < 0 || to >= tiers.length) return tiers;
  const next = [...tiers];
  const [moved] = next.splice(from, 1);
  if (moved) next.splice(to, 0, moved);
  return next;
}

export const canAddTier = (tiers: TierFormValues[]) => tiers.length < MEMBERSHIP_LIMITS.maxTiers;
