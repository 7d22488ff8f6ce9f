import { Readable } from "node:stream";
import { minorToDecimal } from "../../../contracts/money";
import type { Database } from "../../db/database";
import { cell, csvDate } from "../../http/csv";
import { storeCurrencyOf } from "../store-currency";
import { customerRows } from "./customers";

const BATCH = 1000;

/**
 * Every customer (or those matching the search), as the page orders them, dates in the seller's time
 * zone as the sales export's, streamed in keyset batches so 100,000 customers never sit in memory.
 */
export function customersCsv(
  db: Database,
  sellerId: string,
  timeZone: string,
  search: string | undefined,
): Readable {
  async function* rows() {
    // Totals add up what orders settled as: the store currency.
    const { currency } = await storeCurrencyOf(db, sellerId);
    yield "Email,First Purchase,Last Purchase,Orders,Products,Total Spent,Unsubscribed\n";
    let after: { lastPurchaseAt: Date; email: string } | undefined;
    for (;;) {
      const batch = await customerRows(db, sellerId, { search, after }).limit(BATCH).execute();
      yield batch
        .map(
          (row) =>
            `${[
              cell(row.email),
              cell(csvDate(row.first_purchase_at, timeZone)),
              cell(csvDate(row.last_purchase_at, timeZone)),
              String(row.orders_count),
              cell(row.product_titles.join("; ")),
              minorToDecimal(Number(row.total_cents), currency),
              row.unsubscribed ? "yes" : "no",
            ].join(",")}\n`,
        )
        .join("");
      const last = batch.at(-1);
      if (batch.length < BATCH || !last) return;
      after = { lastPurchaseAt: last.last_purchase_at, email: last.email };
    }
  }
  return Readable.from(rows());
}
