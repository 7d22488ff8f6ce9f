import {
  type ImportedProductPlan,
  type ImportReport,
  STORE_IMPORT_LIMITS,
} from "../../../contracts/store-import";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";
import { storeCurrencyOf } from "../store-currency";
import { archiveDryRun } from "./flatfee-archive/archive-dry-run";
import { attachedProductFiles, linkedIds } from "./import-links";
import type { ImportedProduct, RecordOrigin } from "./import-records";
import { importItems } from "./read-import";

export interface DryRunDeps {
  db: Database;
  storage: Storage;
}

/** Order ids looked up against earlier imports at once: one query per this many orders. */
const LOOKUP_BATCH = 500;

type Problem = ImportReport["problems"][number];
const problemAt = (origin: RecordOrigin, reason: string): Problem => ({ ...origin, reason });

/** A list that keeps its first entries and counts them all. */
class Capped<T> {
  readonly items: T[] = [];
  total = 0;
  constructor(private readonly cap: number) {}
  add(item: T) {
    this.total++;
    if (this.items.length < this.cap) this.items.push(item);
  }
}

/**
 * The dry run: reads every file of the import once, as a stream, and says what running it would do
 * (docs/store-import.md, "Dry run"). Nothing is written but the report. Memory grows with the products
 * and the distinct order ids and buyer emails, never with the files' size.
 */
export async function dryRun(
  deps: DryRunDeps,
  sellerId: string,
  importId: string,
  platform: string,
): Promise<ImportReport> {
  if (platform === "flatfee") return archiveDryRun(deps, sellerId, importId);
  const { currency: storeCurrency } = await storeCurrencyOf(deps.db, sellerId);
  const productLinks = await linkedIds(deps.db, sellerId, platform, "product");
  const attached = await attachedProductFiles(deps.db, importId);
  const products = new Map<string, ImportedProductPlan>();
  const files: ImportReport["files"] = [];
  const problems = new Capped<Problem>(STORE_IMPORT_LIMITS.listedProblems);
  const duplicates = new Capped<Problem>(STORE_IMPORT_LIMITS.listedProblems);
  const counts: ImportReport["counts"] = {
    products: { new: 0, existing: 0 },
    orders: { new: 0, existing: 0 },
    refundedOrders: 0,
    licenseKeys: 0,
    customers: 0,
    unsubscribed: 0,
    subscriptions: 0,
    buyers: 0,
  };
  const seenOrders = new Set<string>();
  const customers = new Set<string>();
  const buyers = new Set<string>();
  const seenSubscriptions = new Set<string>();
  // A key often comes twice: on its order and in a key list (Gumroad's activation counts): counted once.
  const licenseKeys = new Set<string>();
  let pendingOrders: { externalId: string; email: string; refunded: boolean }[] = [];
  const ordersByProduct = new Map<string, number>();

  const settleOrders = async () => {
    const existing = await linkedIds(
      deps.db,
      sellerId,
      platform,
      "order",
      pendingOrders.map((order) => order.externalId),
    );
    for (const order of pendingOrders) {
      if (existing.has(order.externalId)) {
        counts.orders.existing++;
        continue;
      }
      counts.orders.new++;
      if (order.refunded) counts.refundedOrders++;
      else buyers.add(order.email);
    }
    pendingOrders = [];
  };

  for await (const { item } of importItems(deps, importId)) {
    switch (item.kind) {
      case "notice": {
        // A reader speaks first (unknown columns) and may speak again at the end (rows it skipped).
        const file = fileEntry(files, item.file);
        file.unknownColumns.push(...item.unknownColumns);
        file.notes.push(...item.notes);
        break;
      }
      case "problem":
        problems.add(problemAt(item.origin, item.reason));
        break;
      case "product":
        countRecord(files, item.origin.file);
        if (products.has(item.externalId)) break;
        products.set(item.externalId, productPlan(item, productLinks, attached, storeCurrency));
        break;
      case "order": {
        countRecord(files, item.origin.file);
        if (seenOrders.has(item.externalId)) {
          duplicates.add(
            problemAt(item.origin, `Order ${item.externalId} appears more than once; it is imported once.`),
          );
          break;
        }
        seenOrders.add(item.externalId);
        ordersByProduct.set(item.productExternalId, (ordersByProduct.get(item.productExternalId) ?? 0) + 1);
        if (item.licenseKey) licenseKeys.add(item.licenseKey);
        pendingOrders.push({
          externalId: item.externalId,
          email: item.email.toLowerCase(),
          refunded: item.status === "refunded",
        });
        if (pendingOrders.length >= LOOKUP_BATCH) await settleOrders();
        break;
      }
      case "license_key":
        countRecord(files, item.origin.file);
        licenseKeys.add(item.key);
        break;
      case "customer": {
        countRecord(files, item.origin.file);
        const email = item.email.toLowerCase();
        if (!customers.has(email)) {
          customers.add(email);
          if (item.marketing === "unsubscribed") counts.unsubscribed++;
        }
        break;
      }
      case "subscription":
        countRecord(files, item.origin.file);
        if (seenSubscriptions.has(item.externalId)) break;
        seenSubscriptions.add(item.externalId);
        counts.subscriptions++;
        break;
    }
  }
  await settleOrders();

  for (const plan of products.values()) {
    plan.orders = ordersByProduct.get(plan.externalId) ?? 0;
    if (plan.status === "imported") counts.products.existing++;
    else counts.products.new++;
  }
  counts.customers = customers.size;
  counts.buyers = buyers.size;
  counts.licenseKeys = licenseKeys.size;
  const readers = await fileReaders(deps.db, importId);
  for (const file of files) file.reader = readers.get(file.name) ?? "";
  return {
    storeCurrency,
    files,
    products: [...products.values()].slice(0, STORE_IMPORT_LIMITS.listedProducts),
    counts,
    problems: problems.items,
    problemsTotal: problems.total,
    duplicates: duplicates.items,
    duplicatesTotal: duplicates.total,
  };
}

function fileEntry(files: ImportReport["files"], name: string) {
  let file = files.find((candidate) => candidate.name === name);
  if (!file) {
    file = { name, reader: "", records: 0, unknownColumns: [], notes: [] };
    files.push(file);
  }
  return file;
}

function countRecord(files: ImportReport["files"], name: string) {
  fileEntry(files, name).records++;
}

/** What the run will do with a product: create it, skip it (and why), or find it made already. */
export function productPlan(
  product: ImportedProduct,
  links: Map<string, string>,
  attached: Map<string, ImportedProductPlan["files"]>,
  storeCurrency: string,
): ImportedProductPlan {
  const productId = links.get(product.externalId) ?? null;
  const files = attached.get(product.externalId) ?? [];
  const status: ImportedProductPlan["status"] = productId
    ? "imported"
    : product.currency !== storeCurrency
      ? "other-currency"
      : files.length === 0
        ? "needs-files"
        : "new";
  return {
    externalId: product.externalId,
    title: product.title,
    priceCents: product.priceCents,
    currency: product.currency,
    productKind: product.productKind,
    issueLicenseKeys: product.issueLicenseKeys,
    orders: 0,
    status,
    productId,
    files,
  };
}

async function fileReaders(db: Database, importId: string) {
  const rows = await db
    .selectFrom("store_import_files")
    .select(["file_name", "reader"])
    .where("import_id", "=", importId)
    .execute();
  return new Map(rows.map((row) => [row.file_name, row.reader]));
}
