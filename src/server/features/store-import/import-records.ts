/**
 * What every importer reads a platform's export into, and the one applier writes (docs/store-import.md).
 * Each platform's reader (platforms/*.ts) turns its CSV or JSON into a stream of these records and of
 * row problems, in file order, never holding the whole file: a 100,000-row CSV is read in bounded memory.
 *
 * Money is an integer of the currency's minor unit (parsed with contracts/money.ts `parseMoney`, never a
 * float); currencies are lower-case ISO codes; times are ISO 8601 strings in UTC (`toISOString()`), read
 * with the time zone the export states.
 */

/** The platforms a creator can bring a store from; "flatfee" is another Flatfee instance's archive. */
export const IMPORT_PLATFORMS = ["gumroad", "lemonsqueezy", "payhip", "polar", "flatfee"] as const;
export type ImportPlatform = (typeof IMPORT_PLATFORMS)[number];

/** Where a record came from, for the dry run's report: the uploaded file's name and its 1-based line (or JSON index). */
export interface RecordOrigin {
  file: string;
  /** The CSV line the row starts on (the header is line 1), or the 1-based position in a JSON array. */
  line: number;
}

/** A product as the platform knew it. Products seen only through sales rows carry what those rows say. */
export interface ImportedProduct {
  kind: "product";
  /** The platform's id (Gumroad's permalink or id, Lemon Squeezy's product id…): the idempotency key. */
  externalId: string;
  title: string;
  /** Plain text or the platform's HTML, as exported (the applier sanitizes it like any description). */
  description: string;
  /** The price in `currency`'s minor unit; a pay-what-you-want product's minimum. 0 is a free product. */
  priceCents: number;
  currency: string;
  priceMode: "fixed" | "flexible";
  suggestedPriceCents: number | null;
  /** One-time product, or a membership (its subscribers come as ImportedSubscription). */
  productKind: "one_time" | "membership";
  issueLicenseKeys: boolean;
  origin: RecordOrigin;
}

/** A buyer or subscriber of the store, with what they agreed to hear. */
export interface ImportedCustomer {
  kind: "customer";
  /** As exported; the applier lower-cases it. */
  email: string;
  name: string | null;
  /**
   * subscribed: agreed to emails from the store; unsubscribed: asked not to be contacted (kept as an
   * unsubscribe, so no email to buyers reaches them); unknown: the export does not say.
   */
  marketing: "subscribed" | "unsubscribed" | "unknown";
  origin: RecordOrigin;
}

/** A past one-time purchase. It gives its buyer a library on Flatfee (same download rules as a new order). */
export interface ImportedOrder {
  kind: "order";
  /** The platform's order or purchase id (for Polar, the invoice number): the idempotency key. */
  externalId: string;
  productExternalId: string;
  productTitle: string;
  email: string;
  buyerName: string | null;
  /** What the buyer paid, in `currency`'s minor unit, discounts taken off, tax included as charged. */
  amountCents: number;
  currency: string;
  discountCode: string | null;
  discountCents: number;
  /** A partial refund keeps the order (and the buyer's access) with refundedCents > 0. */
  status: "completed" | "refunded";
  refundedCents: number;
  createdAt: string;
  /** The key the platform issued with the purchase, when it did. */
  licenseKey: string | null;
  /**
   * What the creator was paid, when the platform says so in another currency than the buyer paid in
   * (Gumroad charges in US dollars what the buyer saw in euros): the store counts this. Absent: the same
   * as what the buyer paid.
   */
  settlement?: { amountCents: number; currency: string; refundedCents: number };
  origin: RecordOrigin;
}

/** A license key with its state on the platform (for exports that list keys apart from orders). */
export interface ImportedLicenseKey {
  kind: "license_key";
  key: string;
  /** The order it belongs to; a key whose order is not in the import is reported, not created. */
  orderExternalId: string;
  productExternalId: string;
  /** Activations or verifications counted so far. */
  uses: number;
  disabled: boolean;
  /**
   * Only for exports that tie keys to buyers instead of orders (Polar's key list): the buyer's email, with
   * orderExternalId and productExternalId empty; the applier matches the key to that buyer's order.
   */
  buyerEmail?: string;
  origin: RecordOrigin;
}

/**
 * An active (or trialing, past due) subscription. Payment methods never move between platforms, so it is
 * listed as "to be re-subscribed": the member is invited to subscribe again on Flatfee.
 */
export interface ImportedSubscription {
  kind: "subscription";
  externalId: string;
  productExternalId: string;
  productTitle: string;
  email: string;
  status: string;
  amountCents: number;
  currency: string;
  interval: "month" | "year";
  /** When what they paid for runs out, when the export says. */
  currentPeriodEnd: string | null;
  origin: RecordOrigin;
}

export type ImportRecord =
  | ImportedProduct
  | ImportedCustomer
  | ImportedOrder
  | ImportedLicenseKey
  | ImportedSubscription;

/** A row that cannot be imported, and why, in words the creator can act on. */
export interface RowProblem {
  kind: "problem";
  origin: RecordOrigin;
  reason: string;
}

/** Said once per file, before its rows: columns we do not know (reported, never guessed at) and rows skipped on purpose. */
export interface FileNotice {
  kind: "notice";
  file: string;
  unknownColumns: string[];
  /** E.g. "Skipped Gumroad's Totals row (line 9)". */
  notes: string[];
}

export type ImportItem = ImportRecord | RowProblem | FileNotice;

/**
 * One platform's reader of one uploaded file: recognises the file (by its header or JSON shape) and
 * streams its items. `detect` sees the first 64 KB of the file.
 */
export interface PlatformFileReader {
  platform: ImportPlatform;
  /** What the file is, for the page ("Gumroad sales CSV"). */
  label: string;
  detect(fileName: string, head: string): boolean;
  read(fileName: string, body: NodeJS.ReadableStream): AsyncIterable<ImportItem>;
  /**
   * A list of licence keys for orders other files give (their use counts, their state): read after every
   * other file of the import, whatever order the files were added in, so each key finds its order.
   */
  readAfterOrders?: boolean;
}
