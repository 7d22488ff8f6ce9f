import {
  PDF_STAMP_LIMITS,
  PDF_STAMP_MESSAGES,
  type PdfStampFailure,
  type ProductStamping,
} from "../../../contracts/pdf-stamps";
import { PRODUCT_MESSAGES } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";
import { FILE_FAILURES, PDF_CONTENT_TYPE } from "./stamp-queue";

const NOT_A_PDF = "Not a PDF: delivered as uploaded.";

/**
 * What the edit page says about stamping one of the seller's products (another seller's answers 404):
 * which of its files will be stamped and why not the others, how many copies are made or waiting,
 * and the latest stamps that failed (their buyers got the original).
 */
export async function productStamping(
  db: Database,
  sellerId: string,
  productId: string,
): Promise<ProductStamping> {
  const product = await db
    .selectFrom("products")
    .select("stamp_pdfs")
    .where("id", "=", productId)
    .where("user_id", "=", sellerId)
    .executeTakeFirst();
  if (!product) throw notFound(PRODUCT_MESSAGES.notFound);
  const [files, counts, problems] = await Promise.all([
    db
      .selectFrom("product_files")
      .innerJoin("uploads", "uploads.id", "product_files.upload_id")
      .select([
        "product_files.upload_id",
        "product_files.display_name",
        "uploads.size_bytes",
        "uploads.content_type",
      ])
      .where("product_files.product_id", "=", productId)
      .orderBy("product_files.position")
      .execute(),
    db
      .selectFrom("pdf_stamps")
      .innerJoin("orders", "orders.id", "pdf_stamps.order_id")
      .select((eb) => [
        eb.fn.countAll<string>().filterWhere("pdf_stamps.status", "=", "stamped").as("stamped"),
        eb.fn.countAll<string>().filterWhere("pdf_stamps.status", "=", "pending").as("pending"),
      ])
      .where("pdf_stamps.seller_id", "=", sellerId)
      .where("orders.product_id", "=", productId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("pdf_stamps")
      .innerJoin("orders", "orders.id", "pdf_stamps.order_id")
      .leftJoin("product_files", "product_files.upload_id", "pdf_stamps.upload_id")
      .leftJoin("uploads", "uploads.id", "pdf_stamps.upload_id")
      .select([
        "pdf_stamps.order_id",
        "orders.customer_email",
        "product_files.display_name",
        "uploads.original_name",
        "pdf_stamps.failure",
        "pdf_stamps.finished_at",
      ])
      .where("pdf_stamps.seller_id", "=", sellerId)
      .where("orders.product_id", "=", productId)
      .where("pdf_stamps.status", "=", "failed")
      .orderBy("pdf_stamps.finished_at", "desc")
      .limit(PDF_STAMP_LIMITS.problemsShown)
      .execute(),
  ]);
  // A file whose stamp failed for a reason of its own (encrypted, damaged...) will fail for every buyer.
  const knownFailures = new Map<string, PdfStampFailure>();
  if (files.length > 0) {
    const failed = await db
      .selectFrom("pdf_stamps")
      .select(["upload_id", "failure"])
      .where("seller_id", "=", sellerId)
      .where(
        "upload_id",
        "in",
        files.map((file) => file.upload_id),
      )
      .where("status", "=", "failed")
      .where("failure", "in", FILE_FAILURES)
      .execute();
    for (const stamp of failed) knownFailures.set(stamp.upload_id, stamp.failure as PdfStampFailure);
  }
  return {
    stampPdfs: product.stamp_pdfs,
    files: files.map((file) => {
      const failure = knownFailures.get(file.upload_id);
      return {
        name: file.display_name,
        sizeBytes: file.size_bytes === null ? null : Number(file.size_bytes),
        notStamped:
          file.content_type !== PDF_CONTENT_TYPE
            ? NOT_A_PDF
            : Number(file.size_bytes ?? 0) > PDF_STAMP_LIMITS.maxBytes
              ? PDF_STAMP_MESSAGES.reasons["too-big"]
              : failure
                ? PDF_STAMP_MESSAGES.reasons[failure]
                : null,
      };
    }),
    stampedCount: Number(counts.stamped),
    pendingCount: Number(counts.pending),
    problems: problems.map((problem) => ({
      orderId: problem.order_id,
      email: problem.customer_email,
      fileName: problem.display_name ?? problem.original_name ?? "A removed file",
      reason:
        PDF_STAMP_MESSAGES.reasons[problem.failure as PdfStampFailure] ?? PDF_STAMP_MESSAGES.reasons.damaged,
      at: (problem.finished_at ?? new Date(0)).toISOString(),
    })),
  };
}
