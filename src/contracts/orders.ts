import { z } from "zod";
import { visitSourceFieldsSchema } from "./analytics";
import { saleDisputeSchema } from "./disputes";
import { LOCALES } from "./i18n/locales";
import { buyerLicenseSchema, saleLicenseSchema } from "./licenses";
import { billingIntervalSchema } from "./memberships";
import { libraryPostSchema } from "./posts";
import { orderTaxSchema } from "./tax";

export const PURCHASE_RULES = {
  /** Downloads a purchase allows of each of its files (a replaced file's new version counts afresh)… */
  maxDownloads: 3,
  /** …within this many days of the purchase. */
  downloadWindowDays: 30,
  /** A download link a buyer holds (email, success page, library) works this long; reissue for a new one. */
  buyerLinkHours: 24,
  /**
   * Each click mints a storage URL valid this long: enough for the download to start (S3 checks expiry
   * only when a request starts) and to resume a brief interruption. A later resume needs a new click.
   */
  storageUrlSeconds: 60,
  /** A buyer checkout session (and its reserved unit) lives this long. */
  checkoutMinutes: 30,
  /** The library link in every receipt works this long (it only lists; each purchase keeps its own window). */
  libraryLinkDays: 365,
} as const;

/** product rules, States and transitions: the success page polls once a second, up to 10 times. */
export const ORDER_POLL = { intervalMs: 1000, maxAttempts: 10 } as const;
export const SALES_PAGE_SIZE = 20;

export const ORDER_MESSAGES = {
  processing: "Processing your order...",
  notFound: "We couldn't find your order details.",
  salesLoadFailed: "Error loading sales data",
  noDataTitle: "No data to export",
  noData: "You don't have any sales yet",
  exportedTitle: "Export successful",
  exported: "Your sales data has been downloaded",
  linkExpired:
    "This download link has expired. Ask for a new one below: it will be sent to the email you bought with.",
  linkInvalid: "This download link is not valid. Use the link from your receipt email.",
  limitReached: "You have used all 3 downloads of this file.",
  fileRemoved: "The creator removed this file from the product, so it is no longer available.",
  chooseFile: "Choose which file to download.",
  windowOver: "The 30-day download window of this purchase has ended.",
  refunded: "This purchase was refunded, so its download is no longer available.",
  productRemoved: "The creator removed this product, so its file is no longer available.",
  resendSent: "If that email bought this product in the last 30 days, a new download link is on its way.",
  notPurchasable: "This product can't be bought right now.",
  soldOut: "Sorry, this product just sold out.",
  checkoutAlreadyOpen:
    "A checkout of this product is already open on your network, perhaps in another tab or browser. Finish it there, or try again in a few minutes.",
  checkoutInterrupted: "Your checkout could not be started. Please try again.",
  storageLinkUsed:
    "This download link has already been used or is no longer valid. Go back to your download page to start a new download.",
  refundConfirm:
    "Refund this order? The buyer gets their money back through Stripe and their download link stops working at once.",
  refundedTitle: "Order refunded",
  downloadsResetTitle: "Downloads reset",
  libraryLinkExpired:
    "This library link has expired. Use the link in your latest receipt, or ask for a new download link on the product page.",
  libraryEmailNotVerified: "Verify your email address to see the purchases made with it.",
} as const;

export const createCheckoutSchema = z.object({
  productId: z.string().min(1).max(64),
  /** A discount code the buyer typed; the server decides the price with it. */
  code: z.string().max(200).optional(),
  /** A pay-what-you-want product's amount, in dollars ("15" or "15.00"); the server checks it. */
  amount: z.union([z.string().max(32), z.number()]).optional(),
  /** Buying as a business: the name and EU VAT number for the invoice (checked before Checkout). */
  businessName: z.string().max(300).optional(),
  vatNumber: z.string().max(60).optional(),
  /** The currency the page showed the price in; the product must have a price in it (docs/money.md). */
  currency: z.string().max(8).optional(),
  /** Where the visit came from (the product page's source fields); kept for the sale's attribution. */
  ...visitSourceFieldsSchema.shape,
});

export const orderStatusSchema = z.enum(["completed", "refunded"]);

/** One file of a purchase: what the buyer downloads, with its own count. */
export const purchaseFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  sizeBytes: z.number().nullable(),
  downloadsUsed: z.number(),
  downloadsRemaining: z.number(),
});
export type PurchaseFile = z.infer<typeof purchaseFileSchema>;

/** What a buyer sees of one purchase (success page, library). */
export const buyerPurchaseSchema = z.object({
  orderId: z.string(),
  productId: z.string().nullable(),
  productTitle: z.string(),
  sellerName: z.string(),
  /** The creator's id: their store is `/store/{sellerId}`. */
  sellerId: z.string().optional(),
  amountCents: z.number(),
  /** The currency the buyer paid in. */
  currency: z.string().default("usd"),
  customerEmail: z.string(),
  status: orderStatusSchema,
  createdAt: z.string(),
  /** Downloads counted for this purchase, all files together. */
  downloadsUsed: z.number(),
  /** The product's current files, in order, each with its own 3 downloads. */
  files: z.array(purchaseFileSchema),
  downloadWindowEndsAt: z.string(),
  /** Why the file cannot be downloaded any more, or null when it can. */
  unavailableReason: z.string().nullable(),
  /** Path of the download page (`/download/{token}`), valid 24 hours; null when unavailable. */
  downloadPath: z.string().nullable(),
  coverThumbnailUrl: z.string().nullable(),
  /** The purchase's license key, when its product issues them (and it was not refunded). */
  licenseKey: buyerLicenseSchema.nullish(),
  /** The tax inside amountCents and its line ("VAT 19% (Germany)", "Reverse charge"); null without tax. */
  tax: z.object({ taxCents: z.number(), label: z.string() }).nullable().default(null),
  /** The withdrawal waiver the buyer accepted before paying, word for word; null when not asked. */
  withdrawalWaiver: z.string().nullable().default(null),
  /** Signed links to the invoice PDF, its credit note (once refunded) and the billing-details page; paid orders only. */
  invoice: z
    .object({ pdfPath: z.string(), creditNotePath: z.string().nullable(), billingPath: z.string() })
    .nullish(),
});
export type BuyerPurchase = z.infer<typeof buyerPurchaseSchema>;

/** The success page's lookup answers only this long after the purchase (see lookup-by-session.ts). */
export const SUCCESS_LOOKUP_MINUTES = 60;
export const successLookupSchema = z.object({ purchase: buyerPurchaseSchema });

/** One membership in a member's library: where it stands, and its current period's files. */
export const libraryMembershipSchema = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  productTitle: z.string(),
  sellerName: z.string(),
  tierName: z.string(),
  interval: billingIntervalSchema,
  /** What each period costs the member. */
  amountCents: z.number(),
  status: z.enum(["trialing", "active", "past_due", "canceling", "ended"]),
  statusLabel: z.string(),
  /** When it renews, or (canceling, ended) when access ends or ended. */
  currentPeriodEnd: z.string(),
  trialEnd: z.string().nullable(),
  hasAccess: z.boolean(),
  /** The latest period's files and downloads (3 per file per period); null before any. */
  period: buyerPurchaseSchema.nullable(),
  /**
   * The creator's posts to the member's tier, newest first (at most 50), while the membership gives
   * access; none otherwise.
   */
  posts: z.array(libraryPostSchema).default([]),
  /** The member gets new posts by email ("Email me new posts"). */
  postEmails: z.boolean().default(true),
  /** The member's tier id (null once the tier is gone), and the tiers they may switch to (open ones, theirs). */
  tierId: z.string().nullable().default(null),
  switchableTiers: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        monthlyPriceCents: z.number(),
        yearlyPriceCents: z.number().nullable(),
      }),
    )
    .default([]),
});
export type LibraryMembership = z.infer<typeof libraryMembershipSchema>;

export const libraryResponseSchema = z.object({
  email: z.string(),
  purchases: z.array(buyerPurchaseSchema),
  memberships: z.array(libraryMembershipSchema).default([]),
  /**
   * The language the library speaks, negotiated from the request as every buyer page's is (`?lang=`,
   * the `lang` cookie, Accept-Language, English; docs/i18n.md). English when absent.
   */
  locale: z.enum(LOCALES).optional(),
});
export type LibraryResponse = z.infer<typeof libraryResponseSchema>;

export const downloadPageSchema = z.object({ purchase: buyerPurchaseSchema });
export type DownloadPage = z.infer<typeof downloadPageSchema>;

/** Which file to download (a purchase's `files[].id`); may be left out when the product has one file. */
export const downloadStartRequestSchema = z.object({ fileId: z.string().min(1).max(64).optional() });
/** The storage URL of that one download, and that file's downloads left. */
export const downloadStartSchema = z.object({ url: z.string(), downloadsRemaining: z.number() });

export const resendLinkSchema = z.object({
  productId: z.string().min(1).max(64),
  email: z.string().trim().email("Please enter a valid email"),
});

export const saleSchema = z.object({
  id: z.string(),
  customerEmail: z.string(),
  productTitle: z.string(),
  /** What the buyer paid, in the currency they paid in. */
  amountCents: z.number(),
  currency: z.string().default("usd"),
  /** The same sale in the store currency, as Stripe settled it (docs/money.md). */
  settlementCents: z.number(),
  settlementCurrency: z.string().default("usd"),
  createdAt: z.string(),
  status: orderStatusSchema,
  /** Downloads taken across all files, of `downloadsAllowed` (3 per file of the product). */
  downloadsUsed: z.number(),
  downloadsAllowed: z.number(),
  /** The discount code the buyer used (null when none) and what it saved them. */
  discountCode: z.string().nullable(),
  discountCents: z.number(),
  /** The sale's license key, its state and verifications; null when its product issues none. */
  license: saleLicenseSchema.nullish(),
  /** A membership's paid period: the period it paid for (null for a one-time sale). */
  periodStart: z.string().nullable().default(null),
  periodEnd: z.string().nullable().default(null),
  /** Stripe Tax's answer (inside amountCents); null before the store collected tax. */
  tax: orderTaxSchema.nullable().default(null),
  /** Its latest dispute (docs/disputes.md): open (downloads and key suspended), won or lost; null if never disputed. */
  dispute: saleDisputeSchema.nullable().default(null),
  /** The platform a store import brought this sale from (docs/store-import.md); null for a sale made here. */
  importedFrom: z.string().nullable().default(null),
});
export type Sale = z.infer<typeof saleSchema>;
export const salesPageSchema = z.object({
  sales: z.array(saleSchema),
  total: z.number(),
  /** Completed (not refunded) orders: what Export CSV writes. */
  completed: z.number(),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type SalesPage = z.infer<typeof salesPageSchema>;

export const salesStatsSchema = z.object({ unitsSold: z.number(), totalRevenueCents: z.number() });

/** product rules, The calls it makes: the CSV export's file name, dated in the seller's time zone. */
export const salesCsvFileName = (now: Date, timeZone: string) =>
  `customer-sales-${new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now)}.csv`;
