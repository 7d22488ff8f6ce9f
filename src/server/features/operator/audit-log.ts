import type { Kysely, Transaction } from "kysely";
import type { AuditEntry, AuditLogPage, AuditLogQuery } from "../../../contracts/operator";
import type { DB } from "../../db/schema";

/** Who did something: an operator (signed in), or the command line (grants and revokes). */
export interface Actor {
  id: string | null;
  email: string;
}

export interface AuditRecord {
  action: string;
  reason: string;
  sellerId?: string | null | undefined;
  productId?: string | null | undefined;
  reportId?: string | null | undefined;
  details?: Record<string, unknown> | undefined;
}

/**
 * Appends one entry to the audit log, in the caller's transaction: the action and its record commit
 * together or not at all. Entries are never changed or removed (a trigger refuses it).
 */
export async function recordAudit(
  trx: Transaction<DB> | Kysely<DB>,
  actor: Actor,
  record: AuditRecord,
  now: Date,
): Promise<number> {
  const row = await trx
    .insertInto("audit_log")
    .values({
      actor_id: actor.id,
      actor_email: actor.email,
      action: record.action,
      seller_id: record.sellerId ?? null,
      product_id: record.productId ?? null,
      report_id: record.reportId ?? null,
      reason: record.reason,
      details: JSON.stringify(record.details ?? {}),
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const PAGE_SIZE = 50;

/** The audit log, newest first, 50 a page; narrowed to one seller or one report when asked. */
export async function listAuditLog(db: Kysely<DB>, query: AuditLogQuery): Promise<AuditLogPage> {
  let select = db
    .selectFrom("audit_log")
    .selectAll()
    .orderBy("id", "desc")
    .limit(PAGE_SIZE + 1);
  if (query.sellerId) select = select.where("seller_id", "=", query.sellerId);
  if (query.reportId) select = select.where("report_id", "=", query.reportId);
  if (query.before) select = select.where("id", "<", query.before);
  const rows = await select.execute();
  const entries: AuditEntry[] = rows.slice(0, PAGE_SIZE).map((row) => ({
    id: Number(row.id),
    actorEmail: row.actor_email,
    action: row.action,
    sellerId: row.seller_id,
    productId: row.product_id,
    reportId: row.report_id,
    reason: row.reason,
    details: row.details ?? {},
    createdAt: row.created_at.toISOString(),
  }));
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > PAGE_SIZE && last ? last.id : null };
}
