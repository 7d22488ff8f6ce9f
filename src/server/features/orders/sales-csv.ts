import { Readable } from "node:stream";
import { SALE_DISPUTE_LABELS } from "../../../contracts/disputes";
import { minorToDecimal } from "../../../contracts/money";
import { type OrderTax, taxLabel } from "../../../contracts/tax";
import type { Database } from "../../db/database";
import { cell, csvDate } from "../../http/csv";
import { ORDER_TAX_COLUMNS, orderTaxView } from "./order-tax-view";

const BATCH = 1000;

/** The tax columns: the amount inside Amount, its rate and place, the buyer's country, and why. */
function taxCells(tax: OrderTax | null, currency: string): string[] {
  if (!tax) return [minorToDecimal(0, currency), "", "", "", ""];
  return [
    minorToDecimal(tax.taxCents, currency),
    cell(tax.taxRate ?? ""),
    cell(tax.taxJurisdiction ?? ""),
    cell(tax.buyerCountry ?? ""),
    cell(taxLabel(tax) ?? ""),
  ];
}

/**
 * The sales export of the product rules (The calls it makes: Customer Email, Product, Amount, Date as 'MMM dd, yyyy HH:mm' in the
 * seller's time zone), then the discount code used and the amount it saved (empty and 0.00 without
 * one), streamed in keyset batches so 100,000 orders never sit in memory.
 */
export function salesCsv(db: Database, sellerId: string, timeZone: string): Readable {
  async function* rows() {
    yield "Customer Email,Product,Amount,Date,Discount Code,Amount Saved,Period Start,Period End,Tax,Tax Rate,Tax Jurisdiction,Buyer Country,Tax Note,Currency,Settled,Settlement Currency,Dispute\n";
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      let query = db
        .selectFrom("orders")
        .select([
          "id",
          "customer_email",
          "product_title",
          "amount_cents",
          "currency",
          "settlement_cents",
          "settlement_currency",
          "created_at",
          "discount_code",
          "discount_cents",
          "period_start",
          "period_end",
          "dispute_status",
          ...ORDER_TAX_COLUMNS,
        ])
        .where("seller_id", "=", sellerId)
        .where("status", "=", "completed");
      if (after) {
        const cursor = after;
        // A row comparison, as on the sales page: PostgreSQL reads the next batch straight from the
        // (seller_id, created_at, id) index instead of reading and skipping every row already written.
        query = query.where((eb) =>
          eb(eb.refTuple("created_at", "id"), "<", eb.tuple(cursor.createdAt, cursor.id)),
        );
      }
      const batch = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(BATCH).execute();
      yield batch
        .map((order) =>
          [
            cell(order.customer_email),
            cell(order.product_title),
            minorToDecimal(order.amount_cents, order.currency),
            cell(csvDate(order.created_at, timeZone)),
            cell(order.discount_code ?? ""),
            minorToDecimal(order.discount_cents, order.currency),
            // A membership's sale is one paid period of it.
            cell(order.period_start ? csvDate(order.period_start, timeZone) : ""),
            cell(order.period_end ? csvDate(order.period_end, timeZone) : ""),
            ...taxCells(orderTaxView(order), order.currency),
            // Amounts are in the currency the buyer paid in; Settled is the sale in the store currency.
            order.currency.toUpperCase(),
            minorToDecimal(order.settlement_cents, order.settlement_currency),
            order.settlement_currency.toUpperCase(),
            // Its latest dispute: Disputed (open), Dispute won, Dispute lost; empty if never disputed.
            order.dispute_status ? SALE_DISPUTE_LABELS[order.dispute_status] : "",
          ].join(","),
        )
        .map((line) => `${line}\n`)
        .join("");
      const last = batch.at(-1);
      if (batch.length < BATCH || !last) return;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
  return Readable.from(rows());
}
