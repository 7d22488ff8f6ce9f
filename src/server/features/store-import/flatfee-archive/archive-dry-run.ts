import { ARCHIVE_RECORD_FILES } from "../../../../contracts/store-archive";
import { type ImportReport, STORE_IMPORT_LIMITS } from "../../../../contracts/store-import";
import type { Storage } from "../../../adapters/storage/storage";
import type { Database } from "../../../db/database";
import { storeCurrencyOf } from "../../store-currency";
import { linkedIds } from "../import-links";
import {
  ARCHIVE_PHASES,
  archiveRecords,
  archiveStore,
  hasSales,
  importArchiveFile,
  LIVE_SUBSCRIPTION,
} from "./archive-records";
import { ARCHIVE_READER_LABEL, withArchive } from "./archive-zip";

export const ARCHIVE_PLATFORM = "flatfee";

type Problem = ImportReport["problems"][number];

/**
 * The dry run of an archive: reads every NDJSON file once, as a stream (each checked against the
 * manifest's SHA-256), and reports what the run would create: products (their files are in the archive,
 * so each is new unless an earlier import made it), the other records, and every line that fails its
 * schema, with its file and line. Nothing is written. Memory holds the order ids and buyer emails.
 */
export async function archiveDryRun(
  deps: { db: Database; storage: Storage },
  sellerId: string,
  importId: string,
): Promise<ImportReport> {
  const file = await importArchiveFile(deps.db, importId);
  return withArchive(deps.storage, file, async (archive, manifest) => {
    const store = await archiveStore(archive, manifest);
    const here = await storeCurrencyOf(deps.db, sellerId);
    const storeCurrency = (await hasSales(deps.db, sellerId)) ? here.currency : store.currency;
    const problems: Problem[] = [];
    const duplicates: Problem[] = [];
    let problemsTotal = 0;
    let duplicatesTotal = 0;
    const problem = (list: Problem[], path: string, line: number, reason: string) => {
      if (list.length < STORE_IMPORT_LIMITS.listedProblems)
        list.push({ file: `${file.fileName}: ${path}`, line, reason });
    };
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
    const products: ImportReport["products"] = [];
    const productLinks = await linkedIds(deps.db, sellerId, ARCHIVE_PLATFORM, "product");
    const orderLinks = await linkedIds(deps.db, sellerId, ARCHIVE_PLATFORM, "order");
    const ordersByProduct = new Map<string, number>();
    const buyers = new Set<string>();
    const seen = new Map<string, Set<string>>();
    const notes: string[] = [];
    let records = 0;
    for (const kind of ARCHIVE_PHASES) {
      const path = ARCHIVE_RECORD_FILES[kind].path;
      const ids = new Set<string>();
      seen.set(kind, ids);
      let inKind = 0;
      for await (const item of archiveRecords(archive, manifest, kind, storeCurrency)) {
        if (item.problem !== undefined) {
          problemsTotal++;
          problem(problems, path, item.line, item.problem);
          continue;
        }
        records++;
        inKind++;
        const record = item.record as { id?: string; orderId?: string; email?: string; code?: string };
        const id = record.id ?? record.orderId ?? record.email ?? record.code;
        if (id !== undefined && !kind.startsWith("analytics")) {
          if (ids.has(id)) {
            duplicatesTotal++;
            problem(duplicates, path, item.line, `${id} appears more than once; it is imported once.`);
            continue;
          }
          ids.add(id);
        }
        switch (kind) {
          case "products": {
            const product = item.record as (typeof item & { record: { id: string } })["record"] &
              import("../../../../contracts/store-archive").ArchiveProduct;
            const productId = productLinks.get(product.id) ?? null;
            const status = productId
              ? "imported"
              : product.currency !== storeCurrency
                ? "other-currency"
                : "new";
            if (productId) counts.products.existing++;
            else counts.products.new++;
            if (products.length < STORE_IMPORT_LIMITS.listedProducts)
              products.push({
                externalId: product.id,
                title: product.title,
                priceCents: product.priceCents,
                currency: product.currency,
                productKind: product.kind,
                issueLicenseKeys: product.settings.issueLicenseKeys,
                orders: 0,
                status,
                productId,
                files: product.files.map((entry) => ({
                  uploadId: entry.id,
                  name: entry.name,
                  sizeBytes: entry.sizeBytes,
                })),
              });
            break;
          }
          case "orders": {
            const order = item.record as import("../../../../contracts/store-archive").ArchiveOrder;
            if (order.productId)
              ordersByProduct.set(order.productId, (ordersByProduct.get(order.productId) ?? 0) + 1);
            if (orderLinks.has(order.id)) {
              counts.orders.existing++;
              break;
            }
            counts.orders.new++;
            if (order.status === "refunded") counts.refundedOrders++;
            else buyers.add(order.buyer.email.toLowerCase());
            break;
          }
          case "license-keys":
            counts.licenseKeys++;
            break;
          case "customers": {
            const customer = item.record as import("../../../../contracts/store-archive").ArchiveCustomer;
            counts.customers++;
            if (customer.unsubscribed) counts.unsubscribed++;
            break;
          }
          case "memberships": {
            const membership = item.record as import("../../../../contracts/store-archive").ArchiveMembership;
            if (LIVE_SUBSCRIPTION.has(membership.status)) counts.subscriptions++;
            break;
          }
        }
      }
      if (inKind > 0) notes.push(`${path}: ${inKind} record${inKind === 1 ? "" : "s"}`);
    }
    for (const plan of products) plan.orders = ordersByProduct.get(plan.externalId) ?? 0;
    counts.buyers = buyers.size;
    if (store.currency !== storeCurrency)
      notes.push(
        `The archive's store sells in ${store.currency.toUpperCase()}; this store has sales in ${storeCurrency.toUpperCase()}, so its currency stays.`,
      );
    notes.push(
      "Webhooks get new signing secrets: give each receiver its new secret after the import.",
      "Memberships cannot move (their payment methods stay on the source's Stripe account): live ones are listed to invite back.",
    );
    return {
      storeCurrency,
      files: [{ name: file.fileName, reader: ARCHIVE_READER_LABEL, records, unknownColumns: [], notes }],
      products,
      counts,
      problems,
      problemsTotal,
      duplicates,
      duplicatesTotal,
    };
  });
}
