import type { Selectable } from "kysely";
import type { Broadcast, BroadcastList } from "../../../contracts/audience";
import type { Database } from "../../db/database";
import type { BroadcastTable } from "../../db/schema";
import { sendingAllowance } from "./limits";

const LISTED = 50;

export function toBroadcast(row: Selectable<BroadcastTable>): Broadcast {
  return {
    id: row.id,
    kind: row.kind,
    productTitle: row.audience === "product" ? row.product_title : null,
    subject: row.subject,
    status: row.status,
    recipients: row.recipients_count,
    createdAt: row.created_at.toISOString(),
  };
}

/** The seller's latest emails to buyers, with how many each reached so far, and what today's limit leaves. */
export async function listBroadcasts(db: Database, sellerId: string, now: Date): Promise<BroadcastList> {
  const [rows, allowance] = await Promise.all([
    db
      .selectFrom("broadcasts")
      .selectAll()
      .where("seller_id", "=", sellerId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(LISTED)
      .execute(),
    sendingAllowance(db, sellerId, now),
  ]);
  return {
    broadcasts: rows.map(toBroadcast),
    remainingToday: allowance.remaining,
    nextAvailableAt: allowance.nextAvailableAt?.toISOString() ?? null,
  };
}
