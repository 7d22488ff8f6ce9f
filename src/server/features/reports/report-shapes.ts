import type { Selectable } from "kysely";
import type { CounterNotice, DmcaNotice, SellerReport } from "../../../contracts/reports";
import type { ReportTable } from "../../db/schema";

type ReportRow = Selectable<ReportTable>;

/** The seller's answer to a report (with their counter-notice to a copyright one), or null before it. */
export function answerOf(row: Pick<ReportRow, "seller_answer" | "counter_notice" | "answered_at">) {
  if (row.answered_at === null || row.seller_answer === null) return null;
  return {
    message: row.seller_answer,
    counterNotice: (row.counter_notice as CounterNotice | null) ?? null,
    answeredAt: row.answered_at.toISOString(),
  };
}

/**
 * A report as the reported seller sees it. The reporter stays unnamed, except a copyright claimant: a
 * DMCA notice is passed on to the person it accuses with the claimant's name and email (what a
 * counter-notice answers, and whom a lawsuit would name); their postal address and phone stay with us
 * (the operator forwards a counter-notice to the claimant).
 */
export function toSellerReport(row: ReportRow): SellerReport {
  const dmca = row.dmca as DmcaNotice | null;
  return {
    id: row.id,
    reason: row.reason,
    status: row.status,
    statusReason: row.status_reason,
    details: row.details,
    productId: row.product_id,
    productTitle: row.product_title,
    createdAt: row.created_at.toISOString(),
    claim:
      row.reason === "copyright" && dmca
        ? {
            work: dmca.work,
            location: dmca.location,
            claimantName: dmca.fullName,
            claimantEmail: row.reporter_email,
            signature: dmca.signature,
          }
        : null,
    answer: answerOf(row),
    canAnswer: row.answered_at === null && row.status !== "dismissed",
  };
}
