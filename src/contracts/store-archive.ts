import { z } from "zod";

/**
 * The store archive (docs/export-format.md): the format "Export my store" writes and another Flatfee
 * instance's importer reads. A ZIP of `manifest.json`, `store.json`, one NDJSON file per kind of record
 * and the stored files. Every id is the source's own (the importer maps them); every amount is an
 * integer of its currency's minor unit (contracts/money.ts) next to the currency it is in; every time
 * is ISO 8601 in UTC.
 *
 * Versioning: adding a field, a record kind or an enum value keeps version 1; renaming, removing or
 * changing the meaning of anything bumps it. `docs/export-format.schema.json` is generated from these
 * schemas (`npx tsx scripts/write-export-schema.ts`) and a test fails when it is stale, so a change
 * here is always a visible change of the documented format.
 *
 * The seller API's export endpoints (`/api/v1/export/{kind}`) answer the same records, with `sha256` of
 * files null: it is computed only while an archive is written.
 */
export const STORE_ARCHIVE_FORMAT = "flatfee-store-archive";
export const STORE_ARCHIVE_VERSION = 1;

const time = z.iso.datetime().meta({ description: "ISO 8601 date-time, UTC." });
const day = z.iso.date().meta({ description: "A UTC day, YYYY-MM-DD." });
const currency = z
  .string()
  .regex(/^[a-z]{3}$/)
  .meta({ description: "ISO 4217 code, lower-case as Stripe writes it." });
const minor = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description} An integer of the minor unit (cents; whole yen for JPY).` });
const count = z.number().int().nonnegative();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const archivePath = z.string().min(1).meta({ description: "Where the bytes are inside the archive." });

/** A stored file inside the archive: where, and its content type. */
const storedImageSchema = z.object({ path: archivePath, contentType: z.string() });

const postalAddressSchema = z.object({
  line1: z.string().nullable(),
  line2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
});

const taxIdCheckSchema = z.object({
  status: z.enum(["valid", "invalid", "unavailable"]),
  service: z.string(),
  checkedAt: z.string(),
  name: z.string().nullable(),
  reference: z.string().nullable(),
});

const withdrawalWaiverSchema = z
  .object({ text: z.string(), acceptedAt: time.nullable() })
  .nullable()
  .meta({ description: "The EU withdrawal waiver the buyer accepted (its wording) and when; null if none." });

// --- store.json -------------------------------------------------------------------------------------

export const archiveStoreSchema = z.object({
  /** The seller's id on the source instance. */
  id: z.string(),
  name: z.string().nullable(),
  tagline: z.string().nullable(),
  description: z.string().nullable(),
  currency: currency.meta({ description: "The store currency: what prices and totals count in." }),
  adaptivePricing: z.boolean(),
  checkoutRecoveryEmails: z.boolean(),
  picture: storedImageSchema.nullable(),
  tax: z
    .object({
      collectTax: z.boolean(),
      taxBehavior: z.enum(["inclusive", "exclusive"]),
      headOfficeCountry: z.string().nullable(),
      legalName: z.string().nullable(),
      legalAddress: z.string().nullable(),
      taxId: z.string().nullable(),
      invoicePrefix: z.string(),
      waiverOutsideEu: z.boolean(),
    })
    .nullable()
    .meta({ description: "The store's tax and invoice settings; null if never saved." }),
  invoiceNumbers: z
    .object({ lastInvoice: count, lastCreditNote: count })
    .meta({ description: "The last invoice and credit note numbers issued, to continue the sequences." }),
  createdAt: time,
});
export type ArchiveStore = z.infer<typeof archiveStoreSchema>;

// --- products.ndjson --------------------------------------------------------------------------------

export const archiveProductFileSchema = z.object({
  id: z.string(),
  /** 0 is the first file. */
  position: count,
  /** The name buyers see. */
  name: z.string(),
  path: archivePath,
  sizeBytes: count,
  contentType: z.string(),
  sha256: sha256
    .nullable()
    .meta({ description: "Of the bytes at `path`; null from the seller API (computed only in an archive)." }),
});

/** A tier's fixed price in a currency other than the store's (docs/money.md). */
export const archiveTierPriceSchema = z.object({
  currency,
  monthlyPriceCents: minor("The monthly price in that currency."),
  yearlyPriceCents: minor(
    "The yearly price in that currency; null when the tier is not offered yearly (and only then).",
  ).nullable(),
});

export const archiveTierSchema = z.object({
  id: z.string(),
  position: count,
  name: z.string(),
  description: z.string(),
  currency,
  monthlyPriceCents: minor("The monthly price."),
  yearlyPriceCents: minor("The yearly price; null when not offered yearly.").nullable(),
  trialDays: count,
  /** Closed to new members; existing members keep it. */
  closed: z.boolean(),
  /** Removed while members still had it: kept for them, offered to nobody. */
  removedAt: time.nullable(),
  /** The product's files this tier's members get (ids of the product's `files`). */
  fileIds: z.array(z.string()),
  otherPrices: z.array(archiveTierPriceSchema).default([]).meta({
    description:
      "Fixed prices in currencies other than the store's, in currency order (docs/money.md). Archives written before this field have none: read its absence as [].",
  }),
});

export const archiveProductSchema = z.object({
  id: z.string(),
  kind: z.enum(["one_time", "membership"]),
  title: z.string(),
  description: z.string(),
  /** On sale (false: a draft or unpublished product). */
  active: z.boolean(),
  currency: currency.meta({ description: "The store currency, which `priceCents` is in." }),
  priceMode: z.enum(["fixed", "flexible"]),
  priceCents: minor("The price (a flexible price's minimum; a membership's lowest monthly price)."),
  suggestedPriceCents: minor("What a flexible price's field is filled with; null when fixed.").nullable(),
  otherPrices: z
    .array(z.object({ currency, priceCents: minor("The fixed price in that currency.") }))
    .meta({ description: "Fixed prices in currencies other than the store's." }),
  files: z.array(archiveProductFileSchema),
  cover: storedImageSchema.nullable(),
  /** A membership's tiers, in order; empty for a one-time product. */
  tiers: z.array(archiveTierSchema),
  settings: z.object({
    issueLicenseKeys: z.boolean(),
    stampPdfs: z.boolean(),
    taxCategory: z.enum(["ebook", "software", "audio", "video", "other"]).nullable(),
    inventory: z.object({
      type: z.enum(["unlimited", "limited"]),
      quantityAvailable: count.nullable(),
    }),
  }),
  createdAt: time,
  updatedAt: time,
});
export type ArchiveProduct = z.infer<typeof archiveProductSchema>;

// --- discount-codes.ndjson --------------------------------------------------------------------------

export const archiveDiscountCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(["percent", "amount"]),
  value: z
    .number()
    .int()
    .meta({ description: "Percent off (1-100), or the amount off in `currency`'s minor unit." }),
  /** An amount's currency; null for a percentage. */
  currency: currency.nullable(),
  allProducts: z.boolean(),
  /** The products it applies to when not all. */
  productIds: z.array(z.string()),
  startsAt: time.nullable(),
  endsAt: time.nullable(),
  maxUses: count.nullable(),
  usesUsed: count,
  paused: z.boolean(),
  /** On a membership: the first payment only, or every payment. */
  membershipDuration: z.enum(["once", "forever"]),
  createdAt: time,
  updatedAt: time,
});
export type ArchiveDiscountCode = z.infer<typeof archiveDiscountCodeSchema>;

// --- customers.ndjson -------------------------------------------------------------------------------

export const archiveCustomerSchema = z.object({
  /** Lower-case. */
  email: z.string(),
  /** Null for someone who never bought but unsubscribed (from a checkout recovery email, say). */
  firstPurchaseAt: time.nullable(),
  lastPurchaseAt: time.nullable(),
  ordersCount: count,
  /** Orders not refunded. */
  completedCount: count,
  totalCents: minor("What their orders not refunded settled as, in the store currency."),
  currency,
  productTitles: z.array(z.string()),
  /** Asked not to hear from the store: no email to buyers may reach them. */
  unsubscribed: z.boolean(),
  unsubscribedAt: time.nullable(),
});
export type ArchiveCustomer = z.infer<typeof archiveCustomerSchema>;

// --- orders.ndjson ----------------------------------------------------------------------------------

export const archiveOrderSchema = z.object({
  id: z.string(),
  createdAt: time,
  /** Null once the product was deleted; `productTitle` is the title at the sale. */
  productId: z.string().nullable(),
  productTitle: z.string(),
  /** A membership's payment: its membership and the period it paid for. */
  membershipId: z.string().nullable(),
  periodStart: time.nullable(),
  periodEnd: time.nullable(),
  status: z.enum(["completed", "refunded"]),
  refundedAt: time.nullable(),
  amountCents: minor("What the buyer paid (tax included, discount taken off), in `currency`."),
  currency,
  settlementCents: minor("The same payment as Stripe settled it, in `settlementCurrency`."),
  settlementCurrency: currency,
  discount: z
    .object({
      codeId: z.string().nullable(),
      code: z.string(),
      discountCents: minor("The amount saved, in the order's `currency`."),
    })
    .nullable(),
  tax: z.object({
    taxCents: minor("The tax inside `amountCents`, in the order's `currency`."),
    behavior: z.enum(["inclusive", "exclusive"]).nullable(),
    rate: z.string().nullable(),
    type: z.string().nullable(),
    jurisdiction: z.string().nullable(),
    taxabilityReason: z.string().nullable(),
    reverseCharge: z.boolean(),
  }),
  buyer: z.object({
    email: z.string(),
    name: z.string().nullable(),
    address: postalAddressSchema.nullable(),
    country: z.string().nullable(),
    state: z.string().nullable(),
    businessName: z.string().nullable(),
    taxId: z.string().nullable(),
    taxIdCheck: taxIdCheckSchema.nullable(),
    /** The buyer's language (the order's emails speak it). */
    locale: z.string(),
  }),
  withdrawalWaiver: withdrawalWaiverSchema,
  /** Its latest dispute: open suspends access, lost keeps it off. */
  dispute: z.object({ id: z.string(), status: z.enum(["open", "won", "lost"]) }).nullable(),
  downloads: z.object({
    used: count,
    windowEndsAt: time,
    /** Downloads counted per file (ids of the product's files that still exist). */
    files: z.array(z.object({ fileId: z.string(), used: count })),
  }),
  stripe: z.object({
    accountId: z.string(),
    /** The Checkout session (a membership's payment: its Stripe invoice). */
    checkoutSessionId: z.string(),
    paymentIntentId: z.string().nullable(),
  }),
});
export type ArchiveOrder = z.infer<typeof archiveOrderSchema>;

// --- license-keys.ndjson ----------------------------------------------------------------------------

export const archiveLicenseKeySchema = z.object({
  orderId: z.string(),
  productId: z.string(),
  key: z.string(),
  /** Verifications that counted. */
  uses: count,
  lastVerifiedAt: time.nullable(),
  disabled: z.boolean(),
  disabledAt: time.nullable(),
  createdAt: time,
});
export type ArchiveLicenseKey = z.infer<typeof archiveLicenseKeySchema>;

// --- memberships.ndjson -----------------------------------------------------------------------------

export const archiveMembershipSchema = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  productTitle: z.string(),
  tierId: z.string().nullable(),
  tierName: z.string(),
  customerEmail: z.string(),
  /** Stripe's subscription status (trialing, active, past_due, canceled…). */
  status: z.string(),
  billingInterval: z.enum(["month", "year"]),
  amountCents: minor("What each period costs, in `currency`."),
  currency,
  cancelAtPeriodEnd: z.boolean(),
  currentPeriodStart: time,
  currentPeriodEnd: time,
  trialEnd: time.nullable(),
  pastDueSince: time.nullable(),
  accessRevokedAt: time.nullable(),
  startedAt: time,
  canceledAt: time.nullable(),
  endedAt: time.nullable(),
  /** Whether the member gets posts by email. */
  postEmails: z.boolean(),
  locale: z.string(),
  withdrawalWaiver: withdrawalWaiverSchema,
  createdAt: time,
  stripe: z.object({ accountId: z.string(), subscriptionId: z.string(), customerId: z.string() }),
});
export type ArchiveMembership = z.infer<typeof archiveMembershipSchema>;

// --- posts.ndjson -----------------------------------------------------------------------------------

export const archivePostSchema = z.object({
  id: z.string(),
  productId: z.string(),
  title: z.string(),
  /** The post's markup (contracts/post-markup.ts). */
  body: z.string(),
  tierIds: z.array(z.string()),
  files: z.array(
    z.object({
      /** A file of the post's product (its `files`), and where its bytes are in the archive. */
      fileId: z.string(),
      path: archivePath,
      position: count,
    }),
  ),
  /** Null while a draft. */
  publishedAt: time.nullable(),
  emails: z.object({ status: z.enum(["sending", "sent"]).nullable(), count }),
  createdAt: time,
  updatedAt: time,
});
export type ArchivePost = z.infer<typeof archivePostSchema>;

// --- invoices.ndjson --------------------------------------------------------------------------------

const invoicePartySchema = z.object({
  name: z.string().nullable(),
  businessName: z.string().nullable(),
  /** Address lines as printed, country last. */
  address: z.array(z.string()),
  postalAddress: postalAddressSchema.nullable(),
  country: z.string().nullable(),
  taxId: z.string().nullable(),
  email: z.string().nullable(),
  taxIdCheckedAt: z.string().nullable(),
  taxIdCheck: taxIdCheckSchema.nullable(),
});

export const archiveInvoiceSchema = z.object({
  /** This version's id; a corrected invoice is a new version with a new id and the same number. */
  id: z.string(),
  orderId: z.string(),
  kind: z.enum(["invoice", "credit_note"]),
  number: count,
  numberText: z.string(),
  version: count,
  issuedAt: time,
  paidAt: time,
  createdAt: time,
  /** A credit note's invoice (the version it credited). */
  creditedInvoiceId: z.string().nullable(),
  seller: invoicePartySchema,
  buyer: invoicePartySchema,
  lines: z.array(
    z.object({
      description: z.string(),
      periodStart: z.string().nullable(),
      periodEnd: z.string().nullable(),
      quantity: z.number().int(),
      netCents: minor("The line before tax, in the document's `currency`."),
      taxCents: minor("The line's tax."),
      totalCents: minor("The line with tax."),
      taxLabel: z.string().nullable(),
    }),
  ),
  currency,
  subtotalCents: minor("Before tax."),
  taxCents: minor("The tax."),
  totalCents: minor("With tax."),
  reverseCharge: z.boolean(),
  withdrawalWaiver: withdrawalWaiverSchema,
});
export type ArchiveInvoice = z.infer<typeof archiveInvoiceSchema>;

// --- webhooks.ndjson --------------------------------------------------------------------------------

export const archiveWebhookSchema = z
  .object({ id: z.string(), url: z.string(), events: z.array(z.string()), createdAt: time })
  .meta({ description: "A webhook endpoint. Never its signing secret: the importer makes a new one." });
export type ArchiveWebhook = z.infer<typeof archiveWebhookSchema>;

// --- analytics/*.ndjson -----------------------------------------------------------------------------

const analyticsCounts = {
  views: count,
  units: count,
  revenueCents: minor("What the units settled as, in `currency` (the store's)."),
  /** Of those, sales made through a checkout recovery link. */
  recoveredUnits: count,
  recoveredCents: minor("What the recovered units settled as."),
  currency,
};

export const archiveProductDaySchema = z.object({ day, productId: z.string(), ...analyticsCounts });
export type ArchiveProductDay = z.infer<typeof archiveProductDaySchema>;

export const archiveSourceDaySchema = z.object({
  day,
  productId: z.string(),
  /** '' when the visit did not say. */
  referrerHost: z.string(),
  utmSource: z.string(),
  utmMedium: z.string(),
  utmCampaign: z.string(),
  ...analyticsCounts,
});
export type ArchiveSourceDay = z.infer<typeof archiveSourceDaySchema>;

export const archiveStoreViewDaySchema = z.object({ day, views: count });
export type ArchiveStoreViewDay = z.infer<typeof archiveStoreViewDaySchema>;

// --- the kinds and their files ----------------------------------------------------------------------

/** Every NDJSON file of the archive: the kind's name (manifest counts, API), its path, its record. */
export const ARCHIVE_RECORD_FILES = {
  products: { path: "products.ndjson", schema: archiveProductSchema },
  "discount-codes": { path: "discount-codes.ndjson", schema: archiveDiscountCodeSchema },
  customers: { path: "customers.ndjson", schema: archiveCustomerSchema },
  orders: { path: "orders.ndjson", schema: archiveOrderSchema },
  "license-keys": { path: "license-keys.ndjson", schema: archiveLicenseKeySchema },
  memberships: { path: "memberships.ndjson", schema: archiveMembershipSchema },
  posts: { path: "posts.ndjson", schema: archivePostSchema },
  invoices: { path: "invoices.ndjson", schema: archiveInvoiceSchema },
  webhooks: { path: "webhooks.ndjson", schema: archiveWebhookSchema },
  "analytics-product-days": { path: "analytics/product-days.ndjson", schema: archiveProductDaySchema },
  "analytics-source-days": { path: "analytics/source-days.ndjson", schema: archiveSourceDaySchema },
  "analytics-store-view-days": {
    path: "analytics/store-view-days.ndjson",
    schema: archiveStoreViewDaySchema,
  },
} as const;
export type ArchiveRecordKind = keyof typeof ARCHIVE_RECORD_FILES;
export const ARCHIVE_RECORD_KINDS = Object.keys(ARCHIVE_RECORD_FILES) as ArchiveRecordKind[];
export type ArchiveRecord<K extends ArchiveRecordKind> = z.infer<(typeof ARCHIVE_RECORD_FILES)[K]["schema"]>;

export const MANIFEST_PATH = "manifest.json";
export const STORE_PATH = "store.json";

// --- manifest.json ----------------------------------------------------------------------------------

export const archiveManifestSchema = z.object({
  format: z.literal(STORE_ARCHIVE_FORMAT),
  version: z.literal(STORE_ARCHIVE_VERSION),
  exportedAt: time,
  store: z.object({ id: z.string(), name: z.string().nullable() }),
  source: z.object({ instanceUrl: z.string().meta({ description: "The Flatfee instance it came from." }) }),
  counts: z
    .object(
      Object.fromEntries(ARCHIVE_RECORD_KINDS.map((kind) => [kind, count])) as Record<
        ArchiveRecordKind,
        typeof count
      >,
    )
    .meta({ description: "Records in each NDJSON file." }),
  files: z
    .array(z.object({ path: archivePath, sizeBytes: count, sha256 }))
    .meta({ description: "Every entry of the archive but this manifest: its size and SHA-256." }),
});
export type ArchiveManifest = z.infer<typeof archiveManifestSchema>;

// --- paths ------------------------------------------------------------------------------------------

/** A name as one path segment: no separators, never `.` or `..` (ZIP readers would climb out). */
export function archiveSegment(name: string): string {
  const safe = name.replace(/[/\\]/g, "_");
  return safe === "." || safe === ".." ? "_" : safe;
}

export const productFilePath = (productId: string, fileId: string, name: string) =>
  `files/${archiveSegment(productId)}/${archiveSegment(fileId)}/${archiveSegment(name)}`;

const IMAGE_EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};
const imageName = (base: string, contentType: string) => `${base}.${IMAGE_EXTENSIONS[contentType] ?? "bin"}`;

export const coverPath = (productId: string, contentType: string) =>
  `covers/${archiveSegment(productId)}/${imageName("cover", contentType)}`;
export const picturePath = (contentType: string) => `store/${imageName("picture", contentType)}`;

// --- the JSON Schema --------------------------------------------------------------------------------

/** Where the JSON Schema is committed (scripts/write-export-schema.ts writes it). */
export const STORE_ARCHIVE_SCHEMA_FILE = "docs/export-format.schema.json";

/** The documented JSON Schema (docs/export-format.schema.json): every file's record under `$defs`. */
export function storeArchiveJsonSchema() {
  const registry = z.registry<{ id: string }>();
  registry.add(archiveManifestSchema, { id: "Manifest" });
  registry.add(archiveStoreSchema, { id: "Store" });
  const ids: Record<ArchiveRecordKind, string> = {
    products: "Product",
    "discount-codes": "DiscountCode",
    customers: "Customer",
    orders: "Order",
    "license-keys": "LicenseKey",
    memberships: "Membership",
    posts: "Post",
    invoices: "Invoice",
    webhooks: "Webhook",
    "analytics-product-days": "AnalyticsProductDay",
    "analytics-source-days": "AnalyticsSourceDay",
    "analytics-store-view-days": "AnalyticsStoreViewDay",
  };
  for (const kind of ARCHIVE_RECORD_KINDS) registry.add(ARCHIVE_RECORD_FILES[kind].schema, { id: ids[kind] });
  // As input: objects stay open, so a reader of version 1 accepts the fields later versions add.
  const { schemas } = z.toJSONSchema(registry, { io: "input", uri: (id) => `#/$defs/${id}` });
  const defs = Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema]),
  );
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `urn:flatfee:store-archive:v${STORE_ARCHIVE_VERSION}`,
    title: `Flatfee store archive, version ${STORE_ARCHIVE_VERSION}`,
    description: `The records of a ${STORE_ARCHIVE_FORMAT} ZIP (docs/export-format.md): manifest.json is a Manifest, store.json a Store, and each line of an NDJSON file one record of its kind: ${ARCHIVE_RECORD_KINDS.map((kind) => `${ARCHIVE_RECORD_FILES[kind].path} → ${ids[kind]}`).join(", ")}.`,
    $defs: defs,
  };
}
