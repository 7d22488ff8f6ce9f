import { sql } from "kysely";
import type { Database } from "../../db/database";
import type { CreatedOrder, OrderChangeStep, RefundedOrder } from "../order-lifecycle";

/**
 * What one order adds to the roll-up (tax_report_days, migration 0028):
 * - `sale`: on the UTC day it was made, to the sales columns;
 * - `refunded-sale`: on that same day, to the refunded sales columns (so the guide reads the kept sales);
 * - `refund`: on the UTC day of its refund, to the refunds columns (so the report subtracts it there).
 */
type Part = "sale" | "refunded-sale" | "refund";

/**
 * An order's tax in the store currency: the settled amount's share in the proportion the buyer paid
 * it (exact decimal arithmetic, rounded to the minor unit); its net is the rest, so the two add up to
 * exactly what settled. An order paid in the store currency settles as its amount: unchanged.
 */
const SETTLED_TAX = sql`(case when amount_cents = 0 then 0
  else round(tax_cents::numeric * settlement_cents / amount_cents) end)::bigint`;

const PARTS: Record<Part, { day: string; count: string; net: string; tax: string }> = {
  sale: { day: "created_at", count: "sales_count", net: "sales_net_cents", tax: "sales_tax_cents" },
  "refunded-sale": {
    day: "created_at",
    count: "refunded_sales_count",
    net: "refunded_sales_net_cents",
    tax: "refunded_sales_tax_cents",
  },
  refund: { day: "refunded_at", count: "refunds_count", net: "refunds_net_cents", tax: "refunds_tax_cents" },
};

const KEY = sql`seller_id, day, country, state, tax_rate, kind, taxed`;
const SUMS = [
  "sales_count",
  "sales_net_cents",
  "sales_tax_cents",
  "refunded_sales_count",
  "refunded_sales_net_cents",
  "refunded_sales_tax_cents",
  "refunds_count",
  "refunds_net_cents",
  "refunds_tax_cents",
];
/** On a bucket that exists: every sum plus what the new row brings (0 in the columns it leaves out). */
const ADD_TO_BUCKET = sql.join(
  SUMS.map(
    (column) => sql`${sql.ref(column)} = tax_report_days.${sql.ref(column)} + excluded.${sql.ref(column)}`,
  ),
);

/**
 * Adds one part of an order to its bucket, read from the order row itself in one statement (so the
 * report's facts are Stripe Tax's answer as recorded): the buyer's country, the US state (the US only),
 * the rate ('' for none), the kind (reverse charge first, then not collected, then any other sale
 * without tax, else taxable: the report's columns, as before the roll-up) and whether tax was charged.
 * Amounts are in the store currency: what the order settled as, its tax the settled share (0038).
 */
export async function addOrderToTaxReportDays(
  trx: Database,
  order: { orderId: string; sellerId: string },
  part: Part,
): Promise<void> {
  const columns = PARTS[part];
  await sql`
    insert into tax_report_days (${KEY}, ${sql.ref(columns.count)}, ${sql.ref(columns.net)}, ${sql.ref(columns.tax)})
    select seller_id,
      (${sql.ref(columns.day)} at time zone 'UTC')::date,
      coalesce(buyer_country, ''),
      case when buyer_country = 'US' then coalesce(buyer_state, '') else '' end,
      coalesce(tax_rate, ''),
      case
        when reverse_charge or coalesce(taxability_reason, '') = 'reverse_charge' then 'reverse_charge'
        when coalesce(taxability_reason, '') = 'not_collecting' then 'not_collected'
        when tax_cents = 0 then 'other_zero'
        else 'taxable'
      end,
      tax_cents > 0,
      1, settlement_cents - ${SETTLED_TAX}, ${SETTLED_TAX}
    from orders
    where id = ${order.orderId} and seller_id = ${order.sellerId} and ${sql.ref(columns.day)} is not null
    on conflict (${KEY}) do update set ${ADD_TO_BUCKET}
  `.execute(trx);
}

/**
 * A new order counts as a sale on its day. One refunded at once (its unit could not be delivered) is
 * also a refund, of that day's sale, on that day: as a later refund would be.
 */
export async function countSaleInTaxReport(trx: Database, order: CreatedOrder): Promise<void> {
  await addOrderToTaxReportDays(trx, order, "sale");
  if (!order.delivered) await countRefundInTaxReport(trx, order);
}

/** A refund counts on its own day, and marks its sale refunded on the sale's day. */
export async function countRefundInTaxReport(
  trx: Database,
  order: Pick<RefundedOrder, "orderId" | "sellerId">,
): Promise<void> {
  await addOrderToTaxReportDays(trx, order, "refunded-sale");
  await addOrderToTaxReportDays(trx, order, "refund");
}

/**
 * The tax report's roll-up follows every sale and refund (OrderChanges). Like the other steps it adds,
 * never recomputes, so it relies on running once per change, which its callers guarantee: an order is
 * created once per checkout session (completeCheckout, under the checkout row's lock), and refunded once
 * (markRefunded's conditional update from `completed`, whoever asks first).
 */
export const taxReportDaysStep: OrderChangeStep = {
  created: countSaleInTaxReport,
  refunded: countRefundInTaxReport,
};
