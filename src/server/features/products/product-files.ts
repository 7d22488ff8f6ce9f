import { randomUUID } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import {
  PRODUCT_FILE_MESSAGES,
  type ProductFileEntry,
  type SellerProductFile,
} from "../../../contracts/product-files";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";
import { AppError } from "../../http/errors";
import { deleteSellerUploadRow, type UploadRow } from "../uploads";
import { tiersColumn } from "./membership-tiers";
import { currencyColumns } from "./product-prices";
import { attachProductUpload } from "./product-uploads";

/**
 * A product's files (1 to 20, `product_files`), each owning one checked upload of its seller. The list
 * is only ever written here, inside the product's own transaction (the caller has created the product
 * or locked its row), so two edits never interleave and a refusal leaves nothing attached or half-made.
 *
 * Updates reach past buyers at once: downloads always list and serve the product's current files
 * (orders/buyer-purchase.ts, downloads/download-link.ts). A removed file disappears for everyone,
 * refunded and old orders included: orders never keep files of their own, so an upload's bytes are
 * deleted as soon as no product file references it (the foreign key refuses to delete a referenced one).
 */

/** The product's first file (position 0): what the product rules' file fields (name, size, type) describe. */
export function firstFileColumns(eb: ExpressionBuilder<DB, "products">) {
  const first = () =>
    eb
      .selectFrom("product_files")
      .innerJoin("uploads", "uploads.id", "product_files.upload_id")
      .whereRef("product_files.product_id", "=", "products.id")
      .orderBy("product_files.position")
      .limit(1);
  return [
    first().select("product_files.display_name").as("file_name"),
    first().select("uploads.size_bytes").as("file_size_bytes"),
    first().select("uploads.content_type").as("file_type"),
    eb
      .selectFrom("product_files")
      .select((count) => count.fn.countAll<number>().as("count"))
      .whereRef("product_files.product_id", "=", "products.id")
      .as("file_count"),
  ];
}

/** Every product read: its columns, its first file's, its tiers, its store's currency and its other prices. */
export const productRows = (db: Database) =>
  db
    .selectFrom("products")
    .selectAll("products")
    .select(firstFileColumns)
    .select(tiersColumn)
    .select(currencyColumns);

/** The product's files as its seller sees them, in order. */
export async function listProductFiles(db: Database, productId: string): Promise<SellerProductFile[]> {
  const rows = await db
    .selectFrom("product_files")
    .innerJoin("uploads", "uploads.id", "product_files.upload_id")
    .select([
      "product_files.id",
      "product_files.display_name",
      "uploads.original_name",
      "uploads.size_bytes",
      "uploads.content_type",
    ])
    .where("product_files.product_id", "=", productId)
    .orderBy("product_files.position")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.display_name,
    originalName: row.original_name,
    sizeBytes: Number(row.size_bytes ?? 0),
    contentType: row.content_type ?? "application/octet-stream",
  }));
}

/** The name buyers see of a new upload unless the seller gave one: its own name, as stored. */
const defaultName = (upload: UploadRow) => upload.original_name.slice(0, 200);

/**
 * A new product's files, in the order sent: each upload is attached (this seller's, checked, a product
 * file, not used elsewhere) or the whole transaction fails.
 */
export async function addNewProductFiles(
  trx: Database,
  sellerId: string,
  productId: string,
  entries: ProductFileEntry[],
  now: Date,
): Promise<void> {
  const rows = [];
  for (const [position, entry] of entries.entries()) {
    const upload = await attachProductUpload(trx, sellerId, entry.uploadId ?? "", "product-file");
    rows.push({
      id: randomUUID(),
      product_id: productId,
      upload_id: upload.id,
      position,
      display_name: entry.name ?? defaultName(upload),
      created_at: now,
      updated_at: now,
    });
  }
  await trx.insertInto("product_files").values(rows).execute();
}

const notThisProduct = () =>
  new AppError("validation_error", 400, PRODUCT_FILE_MESSAGES.notThisProduct, { field: "files" });

/**
 * An edit's file list, the whole list in its new order: kept files are renamed and moved (and their
 * bytes replaced when an upload is given), new uploads are added, files left out are removed. Returns
 * the upload rows no file references any more, already deleted: the caller deletes their bytes once
 * the change is committed. The caller holds the product row's lock.
 */
export async function replaceProductFiles(
  trx: Database,
  sellerId: string,
  productId: string,
  entries: ProductFileEntry[],
  now: Date,
): Promise<UploadRow[]> {
  const current = await trx
    .selectFrom("product_files")
    .select(["id", "upload_id"])
    .where("product_id", "=", productId)
    .execute();
  const currentById = new Map(current.map((file) => [file.id, file]));
  if (entries.some((entry) => entry.id !== undefined && !currentById.has(entry.id))) throw notThisProduct();

  const unreferenced: string[] = [];
  const kept = new Set<string>();
  for (const [position, entry] of entries.entries()) {
    const upload = entry.uploadId
      ? await attachProductUpload(trx, sellerId, entry.uploadId, "product-file")
      : undefined;
    const existing = entry.id ? currentById.get(entry.id) : undefined;
    if (existing) {
      kept.add(existing.id);
      if (upload) unreferenced.push(existing.upload_id);
      await trx
        .updateTable("product_files")
        .set({
          position,
          ...(entry.name !== undefined ? { display_name: entry.name } : {}),
          // A replaced file keeps the name buyers know it by (its download keeps the new file's extension).
          ...(upload ? { upload_id: upload.id } : {}),
          updated_at: now,
        })
        .where("id", "=", existing.id)
        .execute();
    } else if (upload) {
      await trx
        .insertInto("product_files")
        .values({
          id: randomUUID(),
          product_id: productId,
          upload_id: upload.id,
          position,
          display_name: entry.name ?? defaultName(upload),
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
  }
  const removed = current.filter((file) => !kept.has(file.id));
  if (removed.length > 0) {
    await trx
      .deleteFrom("product_files")
      .where(
        "id",
        "in",
        removed.map((file) => file.id),
      )
      .execute();
    unreferenced.push(...removed.map((file) => file.upload_id));
  }
  return deleteUploadRows(trx, sellerId, unreferenced);
}

/**
 * Deletes a product's file rows (the product is being deleted) and their uploads' rows, returning the
 * uploads whose bytes the caller deletes after commit.
 */
export async function removeAllProductFiles(
  trx: Database,
  sellerId: string,
  productId: string,
): Promise<UploadRow[]> {
  const removed = await trx
    .deleteFrom("product_files")
    .where("product_id", "=", productId)
    .returning("upload_id")
    .execute();
  return deleteUploadRows(
    trx,
    sellerId,
    removed.map((file) => file.upload_id),
  );
}

async function deleteUploadRows(trx: Database, sellerId: string, uploadIds: string[]): Promise<UploadRow[]> {
  const deleted: UploadRow[] = [];
  for (const uploadId of uploadIds) {
    const upload = await deleteSellerUploadRow(trx, sellerId, uploadId);
    if (upload) deleted.push(upload);
  }
  return deleted;
}
