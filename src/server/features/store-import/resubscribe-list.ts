import { minorToDecimal } from "../../../contracts/money";
import type { Database } from "../../db/database";
import { cell } from "../../http/csv";
import { sellerImport } from "./import-files";

const HEADER = ["Email", "Product", "Status", "Amount", "Currency", "Interval", "Paid until"];

/**
 * The members an import could not move (their payment methods stay with the platform), as a CSV the
 * creator can invite back from: who, to what, at what price, and until when they have paid.
 */
export async function resubscribeCsv(db: Database, sellerId: string, importId: string): Promise<string> {
  await sellerImport(db, sellerId, importId);
  const rows = await db
    .selectFrom("store_import_resubscribes")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .where("import_id", "=", importId)
    .orderBy("email")
    .execute();
  const lines = rows.map((row) =>
    [
      row.email,
      row.product_title,
      row.status,
      minorToDecimal(row.amount_cents, row.currency),
      row.currency.toUpperCase(),
      row.billing_interval,
      row.current_period_end?.toISOString() ?? "",
    ]
      .map(cell)
      .join(","),
  );
  return `${[HEADER.join(","), ...lines].join("\r\n")}\r\n`;
}
