import { sql } from "kysely";
import { DEFAULT_LOCALE } from "../../../contracts/i18n/locales";
import {
  IMPORT_PLATFORM_NAMES,
  type ImportPlatformName,
  type ImportReport,
  type ImportResult,
  STORE_IMPORT_MESSAGES,
} from "../../../contracts/store-import";
import type { Outbox } from "../../adapters/mail/outbox";
import type { OutgoingEmail } from "../../adapters/mail/transport";
import { type Database, inTransaction } from "../../db/database";
import { AppError, badRequest } from "../../http/errors";
import { enqueueJob, type JobHandler, jobKind } from "../../jobs/job-queue";
import {
  type BuyerEmailDeps,
  EMAIL_BATCH_SIZE,
  enqueueBuyerEmails,
  notUnsubscribed,
  sellerName,
} from "../audience";
import { type DryRunDeps, dryRun } from "./dry-run";
import { importedBuyerEmail } from "./import-email";
import { sellerImport } from "./import-files";
import { ImportFileError } from "./platforms";
import { type RunImportDeps, runImport } from "./run-import";

export const checkImportJob = jobKind<{ importId: string }>("store-import.check");
export const runImportJob = jobKind<{ importId: string }>("store-import.run");
export const emailImportedBuyersJob = jobKind<{ importId: string }>("store-import.email-buyers");

/** The dry run, in the background: an import's files may be large. Files can still be added after it (it runs again). */
export async function startCheck(db: Database, sellerId: string, importId: string): Promise<void> {
  const row = await sellerImport(db, sellerId, importId);
  if (row.status === "checking" || row.status === "importing")
    throw new AppError("import_running", 409, STORE_IMPORT_MESSAGES.alreadyRunning);
  if (row.status === "imported" || row.status === "failed")
    throw new AppError("import_locked", 409, STORE_IMPORT_MESSAGES.notCollecting);
  const files = await db
    .selectFrom("store_import_files")
    .select(sql<number>`count(*)::int`.as("count"))
    .where("import_id", "=", importId)
    .executeTakeFirstOrThrow();
  if (files.count === 0) throw badRequest(STORE_IMPORT_MESSAGES.noFiles, "no_files");
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable("store_imports")
      .set({ status: "checking", error: null })
      .where("id", "=", importId)
      .execute();
    await enqueueJob(trx, checkImportJob, { importId }, { uniqueKey: `store-import:${importId}` });
  });
}

/**
 * The run, once the creator has read the dry run; whether the buyers hear of it is theirs to choose. A run
 * that failed part way (its batches before the failure are committed) resumes where it stopped.
 */
export async function startRun(
  db: Database,
  sellerId: string,
  importId: string,
  notifyBuyers: boolean,
  now: Date,
): Promise<void> {
  const row = await sellerImport(db, sellerId, importId);
  if (row.status === "importing")
    throw new AppError("import_running", 409, STORE_IMPORT_MESSAGES.alreadyRunning);
  const resuming = row.status === "failed" && row.started_at !== null;
  if (row.status !== "checked" && !resuming)
    throw new AppError("not_checked", 409, STORE_IMPORT_MESSAGES.notChecked);
  const report = row.report as ImportReport;
  const total = report.files.reduce((sum, file) => sum + file.records, 0);
  const fresh = { started_at: now, progress_done: 0, progress_total: total, cursor: null, result: null };
  await inTransaction(db, async (trx) => {
    const started = await trx
      .updateTable("store_imports")
      .set({ status: "importing", notify_buyers: notifyBuyers, error: null, ...(resuming ? {} : fresh) })
      .where("id", "=", importId)
      .where("status", "=", row.status)
      .returning("id")
      .executeTakeFirst();
    if (!started) throw new AppError("import_running", 409, STORE_IMPORT_MESSAGES.alreadyRunning);
    await enqueueJob(trx, runImportJob, { importId }, { uniqueKey: `store-import:${importId}` });
  });
}

const failImport = async (db: Database, importId: string, error: unknown): Promise<void> => {
  await db
    .updateTable("store_imports")
    .set({
      status: "failed",
      error:
        error instanceof AppError
          ? error.message
          : "The import stopped on an unexpected error. What it saved before is kept; resume it to go on from there.",
    })
    .where("id", "=", importId)
    .execute();
};

export function checkImportHandler(deps: DryRunDeps): JobHandler<{ importId: string }> {
  return {
    kind: checkImportJob,
    maxAttempts: 2,
    async run({ importId }, { now }) {
      const row = await deps.db
        .selectFrom("store_imports")
        .select(["seller_id", "platform"])
        .where("id", "=", importId)
        .where("status", "=", "checking")
        .executeTakeFirst();
      if (!row) return undefined;
      let report: ImportReport;
      try {
        report = await dryRun(deps, row.seller_id, importId, row.platform);
      } catch (error) {
        // A file broken past its first bytes: trying again reads the same bytes. Said at once.
        if (!(error instanceof ImportFileError)) throw error;
        await failImport(deps.db, importId, error);
        return undefined;
      }
      await deps.db
        .updateTable("store_imports")
        .set({ status: "checked", report: JSON.stringify(report), checked_at: now })
        .where("id", "=", importId)
        .where("status", "=", "checking")
        .execute();
      return undefined;
    },
    // A file the readers cannot finish (broken past its first bytes) says so; the import can take other files.
    gaveUp: ({ importId }, error) => failImport(deps.db, importId, error),
  };
}

export function runImportHandler(deps: RunImportDeps): JobHandler<{ importId: string }> {
  return {
    kind: runImportJob,
    async run({ importId }, { now }) {
      await runImport(deps, importId, now);
      await inTransaction(deps.db, async (trx) => {
        const done = await trx
          .updateTable("store_imports")
          .set({ status: "imported", finished_at: now, cursor: null })
          .where("id", "=", importId)
          .where("status", "=", "importing")
          .returning("notify_buyers")
          .executeTakeFirst();
        if (done?.notify_buyers) await enqueueJob(trx, emailImportedBuyersJob, { importId });
      });
      return undefined;
    },
    gaveUp: ({ importId }, error) => failImport(deps.db, importId, error),
  };
}

export interface ImportEmailDeps extends BuyerEmailDeps {
  db: Database;
  outbox: Outbox;
}

/**
 * The buyers of an import's orders, after `after` (by email), who have not unsubscribed from the store
 * and still hold one of those orders: one batch of the "your purchases moved" emails.
 */
function importedBuyers(
  db: Database,
  sellerId: string,
  importId: string,
  after: string | null,
  limit: number,
) {
  let query = db
    .selectFrom("import_links")
    .innerJoin("orders", "orders.id", "import_links.local_id")
    .select(sql<string>`lower(orders.customer_email)`.as("email"))
    .distinct()
    .where("import_links.import_id", "=", importId)
    .where("import_links.kind", "=", "order")
    .where("orders.seller_id", "=", sellerId)
    .where("orders.status", "=", "completed")
    .where(notUnsubscribed(sellerId, sql.ref("orders.customer_email")))
    .orderBy("email")
    .limit(limit);
  if (after) query = query.where(sql<string>`lower(orders.customer_email)`, ">", after);
  return query.execute();
}

/** Sends the import's buyer emails a batch per run (each batch one transaction with the import's progress). */
export function emailImportedBuyersHandler(deps: ImportEmailDeps): JobHandler<{ importId: string }> {
  return {
    kind: emailImportedBuyersJob,
    async run({ importId }, { now }) {
      return inTransaction(deps.db, async (trx) => {
        const row = await trx
          .selectFrom("store_imports")
          .select(["seller_id", "platform", "result", "cursor"])
          .where("id", "=", importId)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return undefined;
        const after = (row.cursor as { emailAfter?: string } | null)?.emailAfter ?? null;
        const batch = await importedBuyers(trx, row.seller_id, importId, after, EMAIL_BATCH_SIZE);
        if (batch.length === 0) return undefined;
        const store = {
          name: await sellerName(trx, row.seller_id),
          platform: IMPORT_PLATFORM_NAMES[row.platform as ImportPlatformName],
        };
        const emails = batch.map((buyer) => buyer.email);
        await enqueueBuyerEmails(trx, deps, row.seller_id, emails, now, (links) =>
          importedBuyerEmail(store, links),
        );
        const result = row.result as ImportResult;
        await trx
          .updateTable("store_imports")
          .set({
            cursor: JSON.stringify({ emailAfter: emails[emails.length - 1] }),
            result: JSON.stringify({ ...result, buyersEmailed: result.buyersEmailed + emails.length }),
          })
          .where("id", "=", importId)
          .execute();
        return batch.length === EMAIL_BATCH_SIZE ? "again" : undefined;
      });
    },
  };
}

/** The buyer email as the creator previews it, with placeholder links. */
export async function importEmailPreview(
  db: Database,
  sellerId: string,
  platform: ImportPlatformName,
  appUrl: string,
) {
  const email: OutgoingEmail = importedBuyerEmail(
    { name: await sellerName(db, sellerId), platform: IMPORT_PLATFORM_NAMES[platform] },
    {
      to: "buyer@example.com",
      libraryUrl: `${appUrl}/library`,
      unsubscribeUrl: `${appUrl}/unsubscribe`,
      locale: DEFAULT_LOCALE,
    },
  );
  return { subject: email.subject, text: email.text, html: email.html };
}
