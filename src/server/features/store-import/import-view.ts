import type {
  ImportPlatformName,
  ImportReport,
  ImportResult,
  StoreImport,
} from "../../../contracts/store-import";
import { STORE_IMPORT_MESSAGES } from "../../../contracts/store-import";
import type { Database } from "../../db/database";
import { AppError, badRequest } from "../../http/errors";
import { sellerImport } from "./import-files";
import { attachedProductFiles, linkedIds } from "./import-links";

/** The import as its page shows it; products' states follow the files attached since the dry run. */
export async function importView(db: Database, sellerId: string, importId: string): Promise<StoreImport> {
  const row = await sellerImport(db, sellerId, importId);
  const files = await db
    .selectFrom("store_import_files")
    .select(["id", "file_name", "reader", "size_bytes"])
    .where("import_id", "=", importId)
    .orderBy("position")
    .execute();
  const report = row.report as ImportReport | null;
  if (report) await refreshProducts(db, sellerId, row.platform, importId, report);
  return {
    id: row.id,
    platform: row.platform as ImportPlatformName,
    status: row.status,
    files: files.map((file) => ({
      id: file.id,
      name: file.file_name,
      reader: file.reader,
      sizeBytes: Number(file.size_bytes),
    })),
    report,
    result: row.result as ImportResult | null,
    notifyBuyers: row.notify_buyers,
    progress: { done: row.progress_done, total: row.progress_total },
    error: row.error,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

async function refreshProducts(
  db: Database,
  sellerId: string,
  platform: string,
  importId: string,
  report: ImportReport,
) {
  const attached = await attachedProductFiles(db, importId);
  const links = await linkedIds(db, sellerId, platform, "product");
  // An archive's products carry their own files (the report lists them); a platform's are attached here.
  const ownFiles = platform === "flatfee";
  for (const product of report.products) {
    if (!ownFiles) product.files = attached.get(product.externalId) ?? [];
    product.productId = links.get(product.externalId) ?? null;
    if (product.productId) product.status = "imported";
    else if (product.status === "needs-files" || product.status === "new")
      product.status = product.files.length > 0 ? "new" : "needs-files";
  }
  report.counts.products.new = report.products.filter((product) => product.status !== "imported").length;
  report.counts.products.existing = report.products.length - report.counts.products.new;
}

/** The seller's imports, newest first (the page lists them). */
export async function listImports(db: Database, sellerId: string) {
  const rows = await db
    .selectFrom("store_imports")
    .select(["id", "platform", "status", "created_at", "finished_at"])
    .where("seller_id", "=", sellerId)
    .orderBy("created_at", "desc")
    .limit(20)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    platform: row.platform as ImportPlatformName,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  }));
}

/** The dry run's report of an import whose products still take files (checked, not yet running). */
export async function attachableImport(
  db: Database,
  sellerId: string,
  importId: string,
): Promise<ImportReport> {
  const row = await sellerImport(db, sellerId, importId);
  if (row.status !== "checked" && row.status !== "collecting")
    throw new AppError("import_locked", 409, STORE_IMPORT_MESSAGES.notCollecting);
  const report = row.report as ImportReport | null;
  if (!report) throw new AppError("not_found", 404, STORE_IMPORT_MESSAGES.unknownProduct);
  return report;
}

/**
 * The files a product of the import will be created with: checked product-file uploads of this seller
 * not used by any product yet (the whole list, replacing what was attached). Only before the run.
 */
export async function attachProductFiles(
  db: Database,
  sellerId: string,
  importId: string,
  externalId: string,
  uploadIds: string[],
): Promise<void> {
  const report = await attachableImport(db, sellerId, importId);
  if (!report.products.some((product) => product.externalId === externalId))
    throw new AppError("not_found", 404, STORE_IMPORT_MESSAGES.unknownProduct);
  const uploads =
    uploadIds.length === 0
      ? []
      : await db
          .selectFrom("uploads")
          .select("id")
          .where("id", "in", uploadIds)
          .where("seller_id", "=", sellerId)
          .where("purpose", "=", "product-file")
          .where("status", "=", "completed")
          .execute();
  if (uploads.length !== new Set(uploadIds).size)
    throw badRequest(STORE_IMPORT_MESSAGES.notProductFile, "invalid_upload");
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("store_import_product_files")
      .where("import_id", "=", importId)
      .where("product_external_id", "=", externalId)
      .execute();
    if (uploadIds.length === 0) return;
    await trx
      .insertInto("store_import_product_files")
      .values(
        [...new Set(uploadIds)].map((uploadId, position) => ({
          import_id: importId,
          product_external_id: externalId,
          upload_id: uploadId,
          position,
        })),
      )
      .execute();
  });
}
