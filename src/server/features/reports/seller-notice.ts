import { sql } from "kysely";
import type { ReportReason } from "../../../contracts/reports";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { sellerReportEmail } from "./report-email";

/** At most one "new report" email per seller in this long: a campaign of reports sends one. */
export const SELLER_NOTICE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Whether a report arriving at `now` may email its seller: none of their reports emailed them within
 * the hour (`seller_notified_at`, indexed per seller).
 */
export async function sellerNoticeDue(trx: Database, sellerId: string, now: Date): Promise<boolean> {
  const recent = await trx
    .selectFrom("reports")
    .select("id")
    .where("seller_id", "=", sellerId)
    .where("seller_notified_at", ">", new Date(now.getTime() - SELLER_NOTICE_INTERVAL_MS))
    .limit(1)
    .executeTakeFirst();
  return recent === undefined;
}

/**
 * The seller hears of a new report, in the report's transaction: their email is enqueued and the report
 * marked `seller_notified_at`, unless another report emailed them within the hour; then the report is
 * marked `seller_notice_skipped` and the dashboard tells them. Reports about one seller take turns here
 * (an advisory lock on the seller), so two arriving at once send one email, on PostgreSQL too.
 */
export async function tellSellerOfReport(
  deps: { outbox: Outbox; appUrl: string },
  trx: Database,
  report: {
    id: string;
    sellerId: string;
    kind: "product" | "store";
    productTitle: string | null;
    reason: ReportReason;
  },
  now: Date,
): Promise<"sent" | "skipped"> {
  await sql`select pg_advisory_xact_lock(hashtext(${`report-seller-notice:${report.sellerId}`}))`.execute(
    trx,
  );
  const seller = await trx
    .selectFrom("user")
    .select("email")
    .where("id", "=", report.sellerId)
    .executeTakeFirst();
  if (!seller || !(await sellerNoticeDue(trx, report.sellerId, now))) {
    await trx
      .updateTable("reports")
      .set({ seller_notice_skipped: true })
      .where("id", "=", report.id)
      .execute();
    return "skipped";
  }
  await deps.outbox.enqueue(
    sellerReportEmail({
      appUrl: deps.appUrl,
      to: seller.email,
      reportId: report.id,
      kind: report.kind,
      productTitle: report.productTitle,
      reason: report.reason,
      receivedAt: now,
    }),
    trx,
  );
  await trx.updateTable("reports").set({ seller_notified_at: now }).where("id", "=", report.id).execute();
  return "sent";
}
