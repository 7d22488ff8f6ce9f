import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import {
  DEFAULT_INVOICE_PREFIX,
  type InvoiceKind,
  type InvoiceLine,
  invoiceNumberText,
} from "../../../contracts/invoices";
import type { Database } from "../../db/database";
import type { OrderChangeStep } from "../order-lifecycle";
import { type IssueDeps, storeDocument } from "./invoice-issued";
import type { InvoiceRow } from "./invoice-pdf";
import { buyerOfOrder, creditLines, lineOfOrder, sellerParty } from "./invoice-snapshot";

export const newInvoiceId = () => `inv_${randomBytes(10).toString("base64url")}`;

/**
 * The seller's next number of this kind, taken inside the caller's transaction: one upsert that adds 1
 * to the sequence row and returns it. The row stays locked until the transaction ends, so concurrent
 * sales of one seller (on any instance) take their numbers one after another, and a transaction that
 * rolls back gives its number back: the numbers are consecutive, without gaps or repeats.
 */
export async function nextInvoiceNumber(trx: Database, sellerId: string, kind: InvoiceKind): Promise<number> {
  const row = await trx
    .insertInto("invoice_sequences")
    .values({ seller_id: sellerId, kind, last_number: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(["seller_id", "kind"])
        .doUpdateSet({ last_number: sql<number>`invoice_sequences.last_number + 1` }),
    )
    .returning("last_number")
    .executeTakeFirstOrThrow();
  return row.last_number;
}

async function prefixOf(trx: Database, sellerId: string): Promise<string> {
  const settings = await trx
    .selectFrom("store_tax_settings")
    .select("invoice_prefix")
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  return settings?.invoice_prefix ?? DEFAULT_INVOICE_PREFIX;
}

const sum = (lines: InvoiceLine[], field: "netCents" | "taxCents" | "totalCents") =>
  lines.reduce((total, line) => total + line[field], 0);

/**
 * The invoice of a paid order (once: an order that has one keeps it), a snapshot of the seller's
 * settings, the buyer's details and the line as they are now, dated with the order.
 */
export async function issueInvoice(
  trx: Database,
  deps: IssueDeps,
  orderId: string,
  now: Date,
): Promise<string | undefined> {
  const existing = await trx
    .selectFrom("invoices")
    .select("id")
    .where("order_id", "=", orderId)
    .where("kind", "=", "invoice")
    .executeTakeFirst();
  if (existing) return existing.id;
  const order = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
  if (!order || order.amount_cents <= 0) return undefined;
  const seller = await trx
    .selectFrom("user")
    .leftJoin("profiles", "profiles.id", "user.id")
    .leftJoin("store_tax_settings", "store_tax_settings.seller_id", "user.id")
    .select([
      "user.name",
      "profiles.store_name",
      "store_tax_settings.legal_name",
      "store_tax_settings.legal_address",
      "store_tax_settings.tax_id",
      "store_tax_settings.invoice_prefix",
    ])
    .where("user.id", "=", order.seller_id)
    .executeTakeFirstOrThrow();
  const number = await nextInvoiceNumber(trx, order.seller_id, "invoice");
  const lines = [lineOfOrder(order)];
  const row: InvoiceRow = {
    id: newInvoiceId(),
    seller_id: order.seller_id,
    order_id: order.id,
    kind: "invoice",
    number,
    number_text: invoiceNumberText(seller.invoice_prefix ?? DEFAULT_INVOICE_PREFIX, "invoice", number),
    version: 1,
    issued_at: order.created_at,
    paid_at: order.created_at,
    created_at: now,
    credited_invoice_id: null,
    seller: sellerParty(seller, seller.store_name, seller.name),
    buyer: buyerOfOrder(order),
    lines,
    currency: order.currency,
    subtotal_cents: sum(lines, "netCents"),
    tax_cents: sum(lines, "taxCents"),
    total_cents: sum(lines, "totalCents"),
    reverse_charge: order.reverse_charge,
    withdrawal_waiver: order.withdrawal_waiver,
    withdrawal_waiver_at: order.withdrawal_waiver_at,
  };
  await storeDocument(trx, deps, row, now);
  return row.id;
}

/**
 * The credit note of a refunded order's invoice (once): the invoice's newest version mirrored, every
 * amount negative, with a number of the credit notes' own sequence and today's date.
 */
export async function issueCreditNote(
  trx: Database,
  deps: IssueDeps,
  orderId: string,
  now: Date,
): Promise<string | undefined> {
  const invoice = await trx
    .selectFrom("invoices")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("kind", "=", "invoice")
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!invoice) return undefined;
  const existing = await trx
    .selectFrom("invoices")
    .select("id")
    .where("order_id", "=", orderId)
    .where("kind", "=", "credit_note")
    .executeTakeFirst();
  if (existing) return existing.id;
  const number = await nextInvoiceNumber(trx, invoice.seller_id, "credit_note");
  const lines = creditLines(invoice.lines);
  const row: InvoiceRow = {
    id: newInvoiceId(),
    seller_id: invoice.seller_id,
    order_id: orderId,
    kind: "credit_note",
    number,
    number_text: invoiceNumberText(await prefixOf(trx, invoice.seller_id), "credit_note", number),
    version: 1,
    issued_at: now,
    paid_at: invoice.paid_at,
    created_at: now,
    credited_invoice_id: invoice.id,
    seller: invoice.seller,
    buyer: invoice.buyer,
    lines,
    currency: invoice.currency,
    subtotal_cents: sum(lines, "netCents"),
    tax_cents: sum(lines, "taxCents"),
    total_cents: sum(lines, "totalCents"),
    reverse_charge: invoice.reverse_charge,
    withdrawal_waiver: null,
    withdrawal_waiver_at: null,
  };
  await storeDocument(trx, deps, row, now);
  return row.id;
}

/**
 * Invoices' part in OrderChanges (docs/after-a-sale.md): a paid order gets its invoice (a free claim or
 * a trial's $0 period none), one refunded at once because it could not be delivered gets its invoice
 * and the credit note together, and a refund gets the credit note. Membership payments come through the
 * same `created`, so renewals get theirs. Each document queues its `invoice.issued` webhook.
 */
export const invoicesStep = (deps: IssueDeps): OrderChangeStep => ({
  async created(trx, order) {
    if (order.amountCents <= 0) return;
    await issueInvoice(trx, deps, order.orderId, order.at);
    if (!order.delivered) await issueCreditNote(trx, deps, order.orderId, order.at);
  },
  async refunded(trx, order) {
    await issueCreditNote(trx, deps, order.orderId, order.at);
  },
});
