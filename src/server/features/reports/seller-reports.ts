import {
  REPORT_ANSWER_MESSAGES,
  REPORT_LIMITS,
  type ReportAnswerInput,
  type SellerReport,
} from "../../../contracts/reports";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { AppError, notFound } from "../../http/errors";
import type { SignedInUser } from "../../http/session";
import { recordAudit } from "../operator";
import { addBusinessDays, RESTORE_AFTER_BUSINESS_DAYS } from "./business-days";
import { counterNoticeEmail } from "./report-email";
import { toSellerReport } from "./report-shapes";

const PAGE = REPORT_LIMITS.pageSize;

/** The reports about the signed-in seller's store and products, newest first, a page at a time. */
export async function listSellerReports(
  db: Database,
  sellerId: string,
  page: number,
): Promise<{ reports: SellerReport[]; page: number; hasMore: boolean }> {
  const rows = await db
    .selectFrom("reports")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(PAGE + 1)
    .offset((page - 1) * PAGE)
    .execute();
  return { reports: rows.slice(0, PAGE).map(toSellerReport), page, hasMore: rows.length > PAGE };
}

/** One report about the seller's store; another seller's answers 404, as one that does not exist. */
export async function getSellerReport(
  db: Database,
  sellerId: string,
  reportId: string,
): Promise<SellerReport> {
  const row = await db
    .selectFrom("reports")
    .selectAll()
    .where("id", "=", reportId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (!row) throw notFound(REPORT_ANSWER_MESSAGES.notFound);
  return toSellerReport(row);
}

/**
 * The seller answers a report once: their side, and for a copyright report optionally a counter-notice
 * (every element 17 U.S.C. § 512(g)(3) asks for, checked by the contract). Not a dismissed report. The
 * answer and its audit entry commit together; the operator sees it on the report and in the queue. A
 * counter-notice is forwarded to the claimant in the same transaction (counterNoticeEmail, § 512(g)(2)(B)),
 * and the report records when, and from when what was taken down may be restored (10 business days on).
 */
export async function answerReport(
  deps: { db: Database; outbox: Outbox },
  seller: SignedInUser,
  reportId: string,
  input: ReportAnswerInput,
  now: Date,
): Promise<SellerReport> {
  return deps.db.transaction().execute(async (trx) => {
    const report = await trx
      .selectFrom("reports")
      .select([
        "id",
        "reason",
        "status",
        "answered_at",
        "product_id",
        "product_title",
        "reporter_email",
        "reporter_locale",
        "created_at",
      ])
      .where("id", "=", reportId)
      .where("seller_id", "=", seller.id)
      .forUpdate()
      .executeTakeFirst();
    if (!report) throw notFound(REPORT_ANSWER_MESSAGES.notFound);
    if (report.answered_at !== null)
      throw new AppError("already_answered", 409, REPORT_ANSWER_MESSAGES.alreadyAnswered);
    if (report.status === "dismissed")
      throw new AppError("report_closed", 409, REPORT_ANSWER_MESSAGES.reportClosed);
    // A counter-notice answers a copyright notice only; anything else is a plain answer.
    const counterNotice = report.reason === "copyright" ? (input.counterNotice ?? null) : null;
    const restoreAfter = counterNotice ? addBusinessDays(now, RESTORE_AFTER_BUSINESS_DAYS) : null;
    const updated = await trx
      .updateTable("reports")
      .set({
        seller_answer: input.message,
        counter_notice: counterNotice ? JSON.stringify(counterNotice) : null,
        counter_notice_forwarded_at: counterNotice ? now : null,
        restore_after: restoreAfter,
        answered_at: now,
        updated_at: now,
      })
      .where("id", "=", report.id)
      .where("seller_id", "=", seller.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(
      trx,
      { id: seller.id, email: seller.email },
      {
        action: counterNotice ? "report.counter-notice" : "report.seller-answer",
        reason: counterNotice ? "The seller sent a counter-notice" : "The seller answered the report",
        sellerId: seller.id,
        productId: report.product_id,
        reportId: report.id,
        ...(restoreAfter ? { details: { restoreAfter: restoreAfter.toISOString() } } : {}),
      },
      now,
    );
    if (counterNotice && restoreAfter) {
      const store = await trx
        .selectFrom("profiles")
        .select("store_name")
        .where("id", "=", seller.id)
        .executeTakeFirst();
      await deps.outbox.enqueue(
        counterNoticeEmail({
          to: report.reporter_email,
          locale: report.reporter_locale,
          reportId: report.id,
          report: {
            productTitle: report.product_title,
            storeName: store?.store_name ?? null,
            reason: report.reason,
            createdAt: report.created_at,
          },
          message: input.message,
          counterNotice,
          restoreAfter,
        }),
        trx,
      );
    }
    return toSellerReport(updated);
  });
}
