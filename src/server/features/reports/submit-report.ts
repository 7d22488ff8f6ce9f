import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Locale } from "../../../contracts/i18n/locales";
import {
  type CheckedReport,
  checkReportForm,
  OPEN_REPORT_STATUSES,
  REPORT_LIMITS,
  REPORT_MESSAGES,
  type ReportField,
  type ReportFormValues,
  type ReportMessage,
} from "../../../contracts/reports";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import { enforceRateLimit } from "../../http/rate-limit";
import { reportReceivedEmail } from "./report-email";
import type { ReportSubject } from "./report-targets";
import { tellSellerOfReport } from "./seller-notice";

export const REPORT_RATE_LIMITS = {
  perIp: { name: "report:ip", limit: REPORT_LIMITS.perIpPerHour, windowSeconds: 60 * 60 },
  perEmail: { name: "report:email", limit: REPORT_LIMITS.perEmailPerHour, windowSeconds: 60 * 60 },
};

export interface SubmitReportDeps {
  db: Database;
  outbox: Outbox;
  appUrl: string;
}

export type SubmitOutcome =
  | { outcome: "invalid"; problems: Partial<Record<ReportField, ReportMessage>> }
  | { outcome: "received" | "alreadyReviewed"; reportId: string; email: string };

/**
 * The report form's rate limits, before anything else of the post is looked at (its fields, whether
 * the product exists): per network, then per email typed (lowercased, as the dedupe reads it). A refusal
 * says only that (REPORT_MESSAGES.rateLimited).
 */
export async function allowReportPost(
  db: Database,
  request: { ip: string; email: string | undefined },
  now: Date,
): Promise<boolean> {
  try {
    await enforceRateLimit(db, REPORT_RATE_LIMITS.perIp, request.ip, REPORT_MESSAGES.rateLimited, now);
    const email = request.email?.trim().toLowerCase().slice(0, REPORT_LIMITS.emailChars);
    if (email)
      await enforceRateLimit(db, REPORT_RATE_LIMITS.perEmail, email, REPORT_MESSAGES.rateLimited, now);
    return true;
  } catch (error) {
    if (error instanceof Error && "status" in error && error.status === 429) return false;
    throw error;
  }
}

/**
 * A visitor's report of a product or store (already allowed by allowReportPost, the subject found):
 * checked field by field (nothing stored on a problem), then one open report per email, subject and
 * reason (a duplicate adds nothing and says it is being reviewed), stored with the reporter's
 * confirmation email and the seller's (at most one an hour: tellSellerOfReport) in one transaction.
 */
export async function submitReport(
  deps: SubmitReportDeps,
  subject: ReportSubject,
  values: Partial<ReportFormValues>,
  locale: Locale,
  now: Date,
): Promise<SubmitOutcome> {
  const checked = checkReportForm(values);
  if (!checked.ok) return { outcome: "invalid", problems: checked.problems };
  const report = checked.report;
  return deps.db.transaction().execute(async (trx) => {
    const open = await openDuplicate(trx, subject, report);
    if (open) return { outcome: "alreadyReviewed", reportId: open.id, email: report.email };
    const inserted = await trx
      .insertInto("reports")
      .values({
        id: randomUUID(),
        seller_id: subject.sellerId,
        product_id: subject.productId,
        product_title: subject.kind === "product" ? subject.name : null,
        reason: report.reason,
        details: report.details,
        reporter_email: report.email,
        reporter_locale: locale,
        dmca: report.dmca ? JSON.stringify(report.dmca) : null,
        created_at: now,
        updated_at: now,
      })
      // Two identical posts at once: the partial unique index lets one in.
      .onConflict((conflict) => conflict.doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) {
      const raced = await openDuplicate(trx, subject, report);
      return { outcome: "alreadyReviewed", reportId: raced?.id ?? "", email: report.email };
    }
    await deps.outbox.enqueue(reportReceivedEmail({ subject, report, reportId: inserted.id, locale }), trx);
    await tellSellerOfReport(
      deps,
      trx,
      {
        id: inserted.id,
        sellerId: subject.sellerId,
        kind: subject.kind,
        productTitle: subject.kind === "product" ? subject.name : null,
        reason: report.reason,
      },
      now,
    );
    return { outcome: "received", reportId: inserted.id, email: report.email };
  });
}

/** The open report this one repeats: the same email, subject and reason, not yet decided. */
function openDuplicate(db: Database, subject: ReportSubject, report: CheckedReport) {
  return db
    .selectFrom("reports")
    .select("id")
    .where(sql<string>`lower(reporter_email)`, "=", report.email)
    .where("seller_id", "=", subject.sellerId)
    .where(sql<string>`coalesce(product_id, '')`, "=", subject.productId ?? "")
    .where("reason", "=", report.reason)
    .where("status", "in", OPEN_REPORT_STATUSES)
    .executeTakeFirst();
}
