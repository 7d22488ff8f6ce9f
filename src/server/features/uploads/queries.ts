import { type Selectable, sql } from "kysely";
import type { Database } from "../../db/database";
import type { UploadTable } from "../../db/schema";

export type UploadRow = Selectable<UploadTable>;

/** Serialises a seller's upload decisions (quota checks) by locking their user row. */
export async function lockSellerUploads(db: Database, sellerId: string): Promise<void> {
  await sql`select id from "user" where id = ${sellerId} for update`.execute(db);
}

/**
 * Bytes a seller is using: stored files at their real size, pending uploads at their declared size
 * (so parallel uploads cannot overshoot the quota). One SQL sum; storage is never listed.
 */
export async function storageUsedBytes(db: Database, sellerId: string): Promise<number> {
  const row = await storageUsedQuery(db, sellerId).executeTakeFirstOrThrow();
  return Number(row.used);
}

/** storageUsedBytes as a one-row query, for reads that join it with others (the dashboard's stats). */
export function storageUsedQuery(db: Database, sellerId: string) {
  return db
    .selectFrom("uploads")
    .select(sql<string>`coalesce(sum(coalesce(size_bytes, declared_size_bytes)), 0)::bigint`.as("used"))
    .where("seller_id", "=", sellerId);
}

export function findSellerUpload(
  db: Database,
  sellerId: string,
  uploadId: string,
): Promise<UploadRow | undefined> {
  return db
    .selectFrom("uploads")
    .selectAll()
    .where("id", "=", uploadId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
}

export function deleteSellerUploadRow(
  db: Database,
  sellerId: string,
  uploadId: string,
): Promise<UploadRow | undefined> {
  return db
    .deleteFrom("uploads")
    .where("id", "=", uploadId)
    .where("seller_id", "=", sellerId)
    .returningAll()
    .executeTakeFirst();
}

/** Whether an upload link may still write: its upload is pending and unexpired (not checked, not gone). */
export async function uploadLinkOpen(db: Database, uploadKey: string, now = new Date()): Promise<boolean> {
  const open = await db
    .selectFrom("uploads")
    .select("id")
    .where("upload_key", "=", uploadKey)
    .where("status", "=", "pending")
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return open !== undefined;
}
