import { z } from "zod";

/**
 * License keys: a product that issues them gives every delivered order one key, which the seller's
 * software checks through the public `POST /api/v1/licenses/verify` (docs/licenses.md).
 */
export const LICENSE_KEY_FORMAT = {
  /** Crockford's base32: no I, L, O or U, so a key read aloud or retyped is not mistaken. */
  alphabet: "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
  groups: 4,
  groupLength: 8,
} as const;

/** The longest key text the verify endpoint reads (a key is 35 characters; room for spaces). */
const MAX_KEY_INPUT = 100;

export const LICENSE_LIMITS = {
  /** Verifications from one IP address… */
  perIp: { name: "license-verify:ip", limit: 60, windowSeconds: 60 },
  /** …and of one key, from anywhere (a key pasted on a forum is slowed down, not just one machine). */
  perKey: { name: "license-verify:key", limit: 20, windowSeconds: 60 },
} as const;

export const LICENSE_MESSAGES = {
  notFound: "That license key does not exist for the provided product.",
  disabled: "This license key has been disabled by the seller.",
  refunded: "This purchase was refunded, so its license key is no longer valid.",
  suspended: "This purchase is disputed, so its license key is suspended until the dispute is resolved.",
  disputeLost: "This purchase was reversed after a payment dispute, so its license key is no longer valid.",
  productIdMissing: "product_id is required.",
  licenseKeyMissing: "license_key is required.",
  incrementInvalid: 'increment_uses_count must be true or false (or "true" / "false").',
  tooManyFromIp: "Too many license checks from this address. Please wait a minute.",
  tooManyForKey: "This license key was checked too many times. Please wait a minute.",
  saleNotFound: "Sale not found",
  noKey: "This sale has no license key.",
  disabledTitle: "License key disabled",
  enabledTitle: "License key enabled",
  fieldLabel: "Issue license keys",
  fieldHint:
    "Each buyer gets a unique key on their receipt, success page and library; your software checks it with POST /api/v1/licenses/verify.",
} as const;

/** `increment_uses_count`: JSON booleans, or the text a form sends. Anything but false counts the use. */
const incrementSchema = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])], { error: LICENSE_MESSAGES.incrementInvalid })
  .optional()
  .transform((value) => value !== false && value !== "false" && value !== "0");

/** The verify request, form-urlencoded or JSON, with the field names sellers' software already sends. */
export const verifyLicenseSchema = z.object({
  product_id: z
    .string({ error: LICENSE_MESSAGES.productIdMissing })
    .trim()
    .min(1, LICENSE_MESSAGES.productIdMissing)
    .max(64, LICENSE_MESSAGES.notFound),
  license_key: z
    .string({ error: LICENSE_MESSAGES.licenseKeyMissing })
    .trim()
    .min(1, LICENSE_MESSAGES.licenseKeyMissing)
    .max(MAX_KEY_INPUT, LICENSE_MESSAGES.notFound),
  increment_uses_count: incrementSchema,
});
export type VerifyLicenseRequest = z.infer<typeof verifyLicenseSchema>;

export const verifiedLicenseSchema = z.object({
  success: z.literal(true),
  /** Verifications counted so far, this one included when it counted. */
  uses: z.number(),
  purchase: z.object({
    order_id: z.string(),
    product_id: z.string(),
    product_title: z.string(),
    email: z.string(),
    amount_cents: z.number(),
    currency: z.string(),
    created_at: z.string(),
    license_key: z.string(),
  }),
});
export type VerifiedLicense = z.infer<typeof verifiedLicenseSchema>;

/** Every refusal of the verify endpoint. */
export const licenseRefusalSchema = z.object({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
});
export type LicenseRefusal = z.infer<typeof licenseRefusalSchema>;

/** What the seller sees of a sale's key in the sales table. */
export const saleLicenseSchema = z.object({
  key: z.string(),
  disabled: z.boolean(),
  uses: z.number(),
});
export type SaleLicense = z.infer<typeof saleLicenseSchema>;

/** What a buyer sees of their purchase's key. */
export const buyerLicenseSchema = z.object({ key: z.string(), disabled: z.boolean() });
export type BuyerLicense = z.infer<typeof buyerLicenseSchema>;

/** The seller disables or re-enables a sale's key. */
export const licenseChangeSchema = z.object({ disabled: z.boolean() });

/**
 * A key as the buyer may have typed it, in the stored form: upper-case, spaces dropped, Crockford's
 * look-alikes read as digits (O→0, I/L→1), and the dashes put back when they were left out.
 */
export function normalizeLicenseKey(input: string): string {
  const compact = input.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  const { groups, groupLength } = LICENSE_KEY_FORMAT;
  if (compact.length !== groups * groupLength) return compact;
  return Array.from({ length: groups }, (_, i) => compact.slice(i * groupLength, (i + 1) * groupLength)).join(
    "-",
  );
}
