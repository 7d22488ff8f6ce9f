import { z } from "zod";

/** What a creator can bring a store from (docs/store-import.md). */
export const IMPORT_PLATFORM_NAMES = {
  gumroad: "Gumroad",
  lemonsqueezy: "Lemon Squeezy",
  payhip: "Payhip",
  polar: "Polar",
  flatfee: "Flatfee",
} as const;
export type ImportPlatformName = keyof typeof IMPORT_PLATFORM_NAMES;
export const importPlatformSchema = z.enum(["gumroad", "lemonsqueezy", "payhip", "polar", "flatfee"]);

export const STORE_IMPORT_LIMITS = {
  /** Export files per import (a platform's CSVs and JSON pages). */
  maxFiles: 20,
  /** One export file: a 100,000-row sales CSV is about 60 MB. */
  maxFileBytes: 512 * 1024 * 1024,
  /** A Flatfee store archive (docs/store-import.md): it holds the store's files, so it is far larger. */
  maxArchiveBytes: 50 * 1024 * 1024 * 1024,
  /** Imports a seller may start a day. */
  perDay: 10,
  /** Problems and duplicates the report lists one by one (all are counted). */
  listedProblems: 200,
  listedProducts: 500,
  /** A ZIP of products' files: its files count in the store's 5 GB of storage, so no ZIP is larger. */
  maxZipBytes: 5 * 1024 * 1024 * 1024,
  /** Files and folders in one ZIP of products' files. */
  maxZipEntries: 500,
};

export const STORE_IMPORT_MESSAGES = {
  notFound: "Import not found",
  tooManyFiles: `An import takes at most ${STORE_IMPORT_LIMITS.maxFiles} files.`,
  fileTooLarge: "This file is larger than 512 MB. Export a shorter period and import each file.",
  archiveTooLarge: "This archive is larger than 50 GB, the most an import takes.",
  oneArchive: "An import of a Flatfee store takes one archive. Remove the one added to add another.",
  emptyFile: "This file is empty.",
  notCollecting: "Files can only be added before the import runs. Start a new import for more files.",
  noFiles: "Add at least one export file first.",
  notChecked: "Check the import (the dry run) before running it.",
  alreadyRunning: "This import is already running.",
  tooManyToday: `You can start ${STORE_IMPORT_LIMITS.perDay} imports a day. Try again tomorrow.`,
  unknownProduct: "This product is not in the import's dry run.",
  notProductFile: "Attach files uploaded for a product.",
  otherPlatform: (file: string, platform: string) =>
    `${file} is an export of ${platform}, not of the platform this import is for. Start an import for ${platform}.`,
};

const zipEntryWord = (entry: string) => `"${entry}"`;

/**
 * A ZIP of products' files refused as a whole (nothing of it is kept): each message names the ZIP and,
 * when one entry is the reason, that entry (docs/store-import.md, "Files per product").
 */
export const PRODUCT_ZIP_MESSAGES = {
  tooLarge: (zip: string) =>
    `${zip} is larger than 5 GB, the storage a store has for its files. Split it into smaller ZIPs.`,
  notZip: (zip: string) => `${zip} is not a ZIP file. Upload a .zip of the product's files.`,
  damaged: (zip: string) =>
    `${zip} is a ZIP we can't read: it is damaged or incomplete. Make the ZIP again and upload it.`,
  empty: (zip: string) => `${zip} is empty: it holds no files.`,
  noFiles: (zip: string) =>
    `${zip} holds no files to attach, only folders and system files (__MACOSX, .DS_Store, Thumbs.db, hidden files).`,
  tooManyEntries: (zip: string) =>
    `${zip} holds more than ${STORE_IMPORT_LIMITS.maxZipEntries} files and folders. Split it into smaller ZIPs.`,
  unsafePath: (zip: string, entry: string) =>
    `${zip} is refused: ${zipEntryWord(entry)} points outside the ZIP (an absolute path or ".."). Make the ZIP again from the files themselves.`,
  encrypted: (zip: string, entry: string) =>
    `${zip} is refused: ${zipEntryWord(entry)} is password-protected. Make the ZIP again without a password.`,
  unsupported: (zip: string, entry: string) =>
    `${zip} is refused: ${zipEntryWord(entry)} is compressed in a way we can't unpack. Make the ZIP again with standard compression.`,
  entryTooLarge: (zip: string, entry: string, limitMb: number) =>
    `${zip} is refused: ${zipEntryWord(entry)} is larger than ${limitMb} MB, the most a product file can be.`,
  sizeMismatch: (zip: string, entry: string) =>
    `${zip} is refused: ${zipEntryWord(entry)} unpacks to a different size than the ZIP says (a damaged ZIP, or one made to fill the disk).`,
  brokenEntry: (zip: string, entry: string) =>
    `${zip} is damaged: ${zipEntryWord(entry)} can't be unpacked. Make the ZIP again and upload it.`,
  /** A file refused by the checks every product file passes (its format, a program, the quota…). */
  entryRefused: (zip: string, entry: string, reason: string) =>
    `${zip} is refused: ${zipEntryWord(entry)}: ${reason}`,
  tooManyForProduct: (zip: string, title: string, count: number, max: number) =>
    `${zip} would give ${title} ${count} files; a product has at most ${max}. Put fewer files in the ZIP, or in a ZIP of their own inside it.`,
  noProductFolders: (zip: string, folders: string[]) =>
    `${zip} has no folder named after a product of this import${
      folders.length > 0
        ? ` (its folders: ${folders.slice(0, 5).map(zipEntryWord).join(", ")}${folders.length > 5 ? "…" : ""})`
        : ""
    }. Put each product's files in a folder named like the product, or like its id.`,
};

export const importFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** What the file was recognised as ("Gumroad sales CSV"). */
  reader: z.string(),
  sizeBytes: z.number(),
});

const problemSchema = z.object({ file: z.string(), line: z.number(), reason: z.string() });

export const importedProductPlanSchema = z.object({
  externalId: z.string(),
  title: z.string(),
  priceCents: z.number(),
  currency: z.string(),
  productKind: z.enum(["one_time", "membership"]),
  issueLicenseKeys: z.boolean(),
  /** Past orders of it in the import. */
  orders: z.number(),
  /**
   * new: will be created (with the files attached to it); imported: an earlier run created it;
   * needs-files: nothing of it is created until files are attached; other-currency: priced in a
   * currency the store does not sell in.
   */
  status: z.enum(["new", "imported", "needs-files", "other-currency"]),
  /** The product here, once imported. */
  productId: z.string().nullable(),
  /** Files the creator attached for it. */
  files: z.array(z.object({ uploadId: z.string(), name: z.string(), sizeBytes: z.number().nullable() })),
});
export type ImportedProductPlan = z.infer<typeof importedProductPlanSchema>;

const kindCountSchema = z.object({ new: z.number(), existing: z.number() });

/** The dry run: what running the import will create, what it skips, and every row it cannot import. */
export const importReportSchema = z.object({
  storeCurrency: z.string(),
  files: z.array(
    z.object({
      name: z.string(),
      reader: z.string(),
      records: z.number(),
      unknownColumns: z.array(z.string()),
      notes: z.array(z.string()),
    }),
  ),
  products: z.array(importedProductPlanSchema),
  counts: z.object({
    products: kindCountSchema,
    orders: kindCountSchema,
    refundedOrders: z.number(),
    licenseKeys: z.number(),
    customers: z.number(),
    unsubscribed: z.number(),
    subscriptions: z.number(),
    /** Distinct buyers of the new orders: who would get the "your purchases moved" email. */
    buyers: z.number(),
  }),
  problems: z.array(problemSchema),
  problemsTotal: z.number(),
  duplicates: z.array(problemSchema),
  duplicatesTotal: z.number(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const importResultSchema = z.object({
  products: z.number(),
  orders: z.number(),
  licenseKeys: z.number(),
  unsubscribes: z.number(),
  resubscribes: z.number(),
  /** Rows the run could not import (the dry run listed them), and records an earlier run had made. */
  skipped: z.number(),
  alreadyImported: z.number(),
  buyersEmailed: z.number(),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const storeImportSchema = z.object({
  id: z.string(),
  platform: importPlatformSchema,
  status: z.enum(["collecting", "checking", "checked", "importing", "imported", "failed"]),
  files: z.array(importFileSchema),
  report: importReportSchema.nullable(),
  result: importResultSchema.nullable(),
  notifyBuyers: z.boolean(),
  progress: z.object({ done: z.number(), total: z.number() }),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type StoreImport = z.infer<typeof storeImportSchema>;

export const createImportSchema = z.object({ platform: importPlatformSchema });
export const runImportSchema = z.object({ notifyBuyers: z.boolean() });
export const attachProductFilesSchema = z.object({ uploadIds: z.array(z.string().min(1)).max(20) });

/** What a ZIP of products' files gave: the files attached to each product, and what was left out. */
export const productZipResultSchema = z.object({
  import: storeImportSchema,
  attached: z.array(
    z.object({
      externalId: z.string(),
      title: z.string(),
      files: z.array(z.object({ uploadId: z.string(), name: z.string(), sizeBytes: z.number() })),
    }),
  ),
  /** Top-level folders of a ZIP for all products that went to no product, and why: nothing of them is kept. */
  skippedFolders: z.array(z.object({ folder: z.string(), reason: z.string() })),
  /** Files at the top of a ZIP for all products, in no product's folder: not kept. */
  looseFiles: z.array(z.string()),
  /** System files left out (__MACOSX, .DS_Store, Thumbs.db, hidden files). */
  systemFiles: z.number(),
});
export type ProductZipResult = z.infer<typeof productZipResultSchema>;

/** The email imported buyers may get (previewed on the page before the run). */
export const importEmailPreviewSchema = z.object({ subject: z.string(), text: z.string(), html: z.string() });
