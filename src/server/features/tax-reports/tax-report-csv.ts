import { Readable } from "node:stream";
import { minorToDecimal } from "../../../contracts/money";
import { TAX_REPORT_CSV_HEADER, type TaxReportRow } from "../../../contracts/tax-reports";
import type { Database } from "../../db/database";
import { cell } from "../../http/csv";
import { storeCurrencyOf } from "../store-currency";
import { taxReportRows } from "./tax-report";

/** One line of the CSV: the page's row, amounts as decimals of the store currency, refunds negative. */
export function taxReportCsvLine(row: TaxReportRow, currency: string): string {
  const amount = (minor: number) => minorToDecimal(minor, currency);
  return [
    cell(row.country ?? ""),
    cell(row.countryName),
    cell(row.state ?? ""),
    cell(row.taxRate ?? ""),
    String(row.salesCount),
    amount(row.netCents),
    amount(row.taxCents),
    amount(row.refundsNetCents),
    amount(row.refundsTaxCents),
    amount(row.reverseChargeNetCents),
    amount(row.notCollectedNetCents),
    amount(row.otherZeroTaxNetCents),
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
    const [{ rows }, { currency }] = await Promise.all([
      taxReportRows(db, sellerId, quarter),
      storeCurrencyOf(db, sellerId),
    ]);
    for (const row of rows) yield `${taxReportCsvLine(row, currency)}\n`;
  }
  return Readable.from(lines());
}
