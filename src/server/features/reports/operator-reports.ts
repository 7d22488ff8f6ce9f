import type { ExpressionBuilder } from "kysely";
import {
  type DmcaNotice,
  type OperatorReport,
  type OperatorReportsPage,
  REPORT_ANSWER_MESSAGES,
  REPORT_LIMITS,
  REPORT_STATUSES,
  type ReportStatus,
  type ReportStatusChange,
} from "../../../contracts/reports";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import { type Actor, recordAudit } from "../operator";
import { reportDecidedEmail } from "./report-email";
import { answerOf } from "./report-shapes";

const PAGE = REPORT_LIMITS.pageSize;

/** Whether the report's product is taken down now (a take-down in force: enforcement_actions). */
const productTakenDown = (eb: ExpressionBuilder<DB, "reports">) =>
  eb.exists(
    eb
      .selectFrom("enforcement_actions")
      .select("enforcement_actions.id")
      .whereRef("enforcement_actions.product_id", "=", "reports.product_id")
      .where("enforcement_actions.kind", "=", "take-down")
      .where("enforcement_actions.lifted_at", "is", null),
  );

/**
 * Ready to restore: a counter-notice was forwarded, its 10 business days have passed, the report is not
 * dismissed and its product is still taken down. The operator decides; nothing is restored by itself.
 */
const readyToRestore = (now: Date) => (eb: ExpressionBuilder<DB, "reports">) =>
  eb.and([
    eb("reports.restore_after", "<=", now),
    eb("reports.status", "<>", "dismissed"),
    productTakenDown(eb),
  ]);

/**
 * The operator's queue: newest first, narrowed to one status (or to the reports ready to restore) when
 * asked, a page at a time, with each status' count and how many are ready to restore.
 */
export async function listReports(
  db: Database,
  query: { status?: ReportStatus | undefined; restore?: "ready" | undefined; page: number },
  now: Date,
): Promise<OperatorReportsPage> {
  let select = db
    .selectFrom("reports")
    .leftJoin("profiles", "profiles.id", "reports.seller_id")
    .select([
      "reports.id",
      "reports.reason",
      "reports.status",
      "reports.seller_id",
      "profiles.store_name",
      "reports.product_id",
      "reports.product_title",
      "reports.reporter_email",
      "reports.created_at",
      "reports.answered_at",
      (eb) => readyToRestore(now)(eb).as("ready_to_restore"),
    ])
    .orderBy("reports.created_at", "desc")
    .orderBy("reports.id", "desc")
    .limit(PAGE + 1)
    .offset((query.page - 1) * PAGE);
  if (query.status) select = select.where("reports.status", "=", query.status);
  if (query.restore === "ready") select = select.where(readyToRestore(now));
  const [rows, counted, ready] = await Promise.all([
    select.execute(),
    db
      .selectFrom("reports")
      .select(["status", (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy("status")
      .execute(),
    db
      .selectFrom("reports")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where(readyToRestore(now))
      .executeTakeFirstOrThrow(),
  ]);
  const counts = Object.fromEntries(REPORT_STATUSES.map((status) => [status, 0])) as Record<
    ReportStatus,
    number
  >;
  for (const row of counted) counts[row.status] = Number(row.n);
  return {
    reports: rows.slice(0, PAGE).map((row) => ({
      id: row.id,
      reason: row.reason,
      status: row.status,
      sellerId: row.seller_id,
      storeName: row.store_name,
      productId: row.product_id,
      productTitle: row.product_title,
      reporterEmail: row.reporter_email,
      createdAt: row.created_at.toISOString(),
      answered: row.answered_at !== null,
      readyToRestore: row.ready_to_restore === true,
    })),
    page: query.page,
    hasMore: rows.length > PAGE,
    counts,
    readyToRestore: Number(ready.n),
  };
}

/**
 * What the upload checks did to every file a product has (docs/files.md): a file that failed any of
 * them was refused and never kept, so each file listed passed them.
 */
export function fileChecksNote(clamAv: boolean): string {
  return [
    "Every file passed the upload checks: its real size, its format read from the content (and agreeing with its name), programs and script files refused, every ZIP entry checked, the EICAR test signature refused",
    clamAv
      ? "and ClamAV's scan."
      : "(ClamAV is not configured on this server: no antivirus scan beyond that).",
  ].join(" ");
}

/** One report with everything the operator decides on: the product and its files, the seller's history, the answer. */
export async function getReport(
  deps: { db: Database; appUrl: string; clamAv: boolean },
  reportId: string,
  now: Date,
): Promise<OperatorReport> {
  const { db } = deps;
  const row = await db
    .selectFrom("reports")
    .leftJoin("user", "user.id", "reports.seller_id")
    .leftJoin("profiles", "profiles.id", "reports.seller_id")
    .selectAll("reports")
    .select(["user.email as seller_email", "profiles.store_name"])
    .select((eb) => [
      productTakenDown(eb).as("product_taken_down"),
      readyToRestore(now)(eb).as("ready_to_restore"),
    ])
    .where("reports.id", "=", reportId)
    .executeTakeFirst();
  if (!row) throw notFound(REPORT_ANSWER_MESSAGES.notFound);

  const [product, files, history] = await Promise.all([
    row.product_id
      ? db
          .selectFrom("products")
          .select(["id", "title", "is_active"])
          .where("id", "=", row.product_id)
          .executeTakeFirst()
      : undefined,
    row.product_id
      ? db
          .selectFrom("product_files")
          .innerJoin("uploads", "uploads.id", "product_files.upload_id")
          .select([
            "product_files.id",
            "product_files.display_name",
            "uploads.original_name",
            "uploads.declared_type",
            "uploads.content_type",
            "uploads.size_bytes",
            "uploads.status",
            "uploads.completed_at",
          ])
          .where("product_files.product_id", "=", row.product_id)
          .orderBy("product_files.position")
          .execute()
      : [],
    db
      .selectFrom("reports")
      .select(["id", "reason", "status", "status_reason", "product_title", "created_at"])
      .where("seller_id", "=", row.seller_id)
      .where("id", "<>", row.id)
      .orderBy("created_at", "desc")
      .limit(50)
      .execute(),
  ]);

  const reported =
    row.product_id || row.product_title !== null
      ? {
          id: product?.id ?? null,
          title: product?.title ?? row.product_title ?? "",
          url: product ? `${deps.appUrl}/product/${product.id}` : null,
          exists: product !== undefined,
          isActive: product ? product.is_active : null,
          files: files.map((file) => ({
            id: file.id,
            name: file.display_name,
            originalName: file.original_name,
            declaredType: file.declared_type,
            contentType: file.content_type,
            sizeBytes: file.size_bytes === null ? null : Number(file.size_bytes),
            status: file.status,
            checkedAt: file.completed_at?.toISOString() ?? null,
          })),
        }
      : null;

  return {
    id: row.id,
    reason: row.reason,
    status: row.status,
    statusReason: row.status_reason,
    details: row.details,
    reporterEmail: row.reporter_email,
    reporterLocale: row.reporter_locale,
    dmca: (row.dmca as DmcaNotice | null) ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    answer: answerOf(row),
    counterNoticeForwarded:
      row.counter_notice_forwarded_at && row.restore_after
        ? {
            forwardedAt: row.counter_notice_forwarded_at.toISOString(),
            restoreAfter: row.restore_after.toISOString(),
            productTakenDown: row.product_taken_down === true,
            readyToRestore: row.ready_to_restore === true,
          }
        : null,
    seller: { id: row.seller_id, email: row.seller_email, storeName: row.store_name },
    product: reported,
    fileChecks: fileChecksNote(deps.clamAv),
    sellerHistory: history.map((earlier) => ({
      id: earlier.id,
      reason: earlier.reason,
      status: earlier.status,
      statusReason: earlier.status_reason,
      productTitle: earlier.product_title,
      createdAt: earlier.created_at.toISOString(),
    })),
  };
}

const AUDIT_ACTIONS: Record<ReportStatusChange["status"], string> = {
  in_review: "report.in-review",
  dismissed: "report.dismiss",
  actioned: "report.mark-actioned",
};

/**
 * An operator moves a report on: new → in review, then dismissed or actioned (each with its reason).
 * A decided report stays decided. The change, its audit entry and, once decided, the reporter's email
 * (in the language they reported in: reportDecidedEmail) commit together.
 */
export async function changeReportStatus(
  deps: { db: Database; outbox: Outbox },
  actor: Actor,
  reportId: string,
  change: ReportStatusChange,
  now: Date,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const report = await trx
      .selectFrom("reports")
      .select([
        "id",
        "status",
        "seller_id",
        "product_id",
        "product_title",
        "reason",
        "reporter_email",
        "reporter_locale",
        "created_at",
      ])
      .where("id", "=", reportId)
      .forUpdate()
      .executeTakeFirst();
    if (!report) throw notFound(REPORT_ANSWER_MESSAGES.notFound);
    if (report.status === "actioned" || report.status === "dismissed")
      throw new AppError("report_closed", 409, REPORT_ANSWER_MESSAGES.reportClosed);
    if (report.status === change.status)
      throw new AppError("report_unchanged", 409, REPORT_ANSWER_MESSAGES.alreadyInReview);
    const reason = change.reason?.trim() || "Taken into review";
    await trx
      .updateTable("reports")
      .set({
        status: change.status,
        status_reason: change.status === "in_review" ? null : reason,
        updated_at: now,
      })
      .where("id", "=", report.id)
      .execute();
    await recordAudit(
      trx,
      actor,
      {
        action: AUDIT_ACTIONS[change.status],
        reason,
        sellerId: report.seller_id,
        productId: report.product_id,
        reportId: report.id,
        details: { from: report.status, to: change.status },
      },
      now,
    );
    if (change.status === "in_review") return;
    const store = await trx
      .selectFrom("profiles")
      .select("store_name")
      .where("id", "=", report.seller_id)
      .executeTakeFirst();
    await deps.outbox.enqueue(
      reportDecidedEmail({
        to: report.reporter_email,
        locale: report.reporter_locale,
        reportId: report.id,
        decision: change.status,
        reason,
        report: {
          productTitle: report.product_title,
          storeName: store?.store_name ?? null,
          reason: report.reason,
          createdAt: report.created_at,
        },
      }),
      trx,
    );
  });
}
