import { Readable } from "node:stream";
import type { MembersQuery } from "../../../contracts/memberships";
import { minorToDecimal } from "../../../contracts/money";
import type { Database } from "../../db/database";
import { cell, csvDate } from "../../http/csv";
import { memberRows, toMember } from "./members";

const BATCH = 1000;

/**
 * Every member matching the page's filters, as the page orders them, dates in the seller's time zone,
 * amounts in the membership's currency,
 * streamed in keyset batches so 100,000 members never sit in memory.
 */
export function membersCsv(
  db: Database,
  sellerId: string,
  filter: Pick<MembersQuery, "q" | "status" | "productId">,
  timeZone: string,
  now: Date,
): Readable {
  async function* rows() {
    yield "Email,Product,Tier,Interval,Amount,Status,Started,Renews or Ends,Lifetime Spend\n";
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const batch = await memberRows(db, sellerId, filter, after).limit(BATCH).execute();
      yield batch
        .map((row) => {
          const member = toMember(row, now);
          return `${[
            cell(member.email),
            cell(member.productTitle),
            cell(member.tierName),
            member.interval,
            minorToDecimal(member.amountCents, row.currency),
            cell(member.statusLabel),
            cell(csvDate(row.started_at, timeZone)),
            cell(csvDate(row.ended_at ?? row.current_period_end, timeZone)),
            minorToDecimal(member.lifetimeSpendCents, row.currency),
          ].join(",")}\n`;
        })
        .join("");
      const last = batch.at(-1);
      if (batch.length < BATCH || !last) return;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
  return Readable.from(rows());
}
