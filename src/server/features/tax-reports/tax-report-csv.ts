import { Readable } from "node:stream";
import { centsToDecimal } from "../../../contracts/money";
import { TAX_REPORT_CSV_HEADER, type TaxReportRow } from "../../../contracts/tax-reports";
import type { Database } from "../../db/database";
import { cell } from "../../http/csv";
import { taxReportRows } from "./tax-report";

/** One line of the CSV: the page's row, amounts as decimals (centsToDecimal), refunds negative. */
export function taxReportCsvLine(row: TaxReportRow): string {
  return [
    cell(row.country ?? ""),
    cell(row.countryName),
    cell(row.state ?? ""),
    cell(row.taxRate ?? ""),
    String(row.salesCount),
    centsToDecimal(row.netCents),
    centsToDecimal(row.taxCents),
    centsToDecimal(row.refundsNetCents),
    centsToDecimal(row.refundsTaxCents),
    centsToDecimal(row.reverseChargeNetCents),
    centsToDecimal(row.notCollectedNetCents),
    centsToDecimal(row.otherZeroTaxNetCents),
  ].join(",");
}

/**
 * The quarter's report as CSV for an OSS return: the header line first (no comment line), then one
 * line per country / state / rate, exactly the page's rows. Streamed; the rows are the SQL's groups
 * (a few per country), never one per order.
 */
export function taxReportCsv(db: Database, sellerId: string, quarter: string): Readable {
  async function* lines() {
    yield `${TAX_REPORT_CSV_HEADER.join(",")}\n`;
    const { rows } = await taxReportRows(db, sellerId, quarter);
    for (const row of rows) yield `${taxReportCsvLine(row)}\n`;
  }
  return Readable.from(lines());
}
