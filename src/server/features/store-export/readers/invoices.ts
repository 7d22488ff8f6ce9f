import type { InvoiceParty } from "../../../../contracts/invoices";
import type { ArchiveInvoice } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { iso, keysetPages, type PageOptions, recordsOnly, timeIdKey } from "./keyset";
import { postalAddress, taxIdCheck, withdrawalWaiver } from "./shapes";

/**
 * invoices.ndjson: every invoice and credit note, every version, as the immutable snapshot it is (the
 * PDF is rendered from it, so none is stored).
 */
export function readInvoices(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: timeIdKey,
      fetch: (after, limit) =>
        db
          .selectFrom("invoices")
          .selectAll()
          .where("seller_id", "=", sellerId)
          .$if(after !== undefined, (query) =>
            query.where((eb) =>
              eb(eb.refTuple("issued_at", "id"), ">", eb.tuple(new Date(after![0]), after![1])),
            ),
          )
          .orderBy("issued_at")
          .orderBy("id")
          .limit(limit)
          .execute(),
      keyOf: (row) => [iso(row.issued_at), row.id] as [string, string],
      toPage: recordsOnly((rows) =>
        rows.map(
          (row): ArchiveInvoice => ({
            id: row.id,
            orderId: row.order_id,
            kind: row.kind,
            number: row.number,
            numberText: row.number_text,
            version: row.version,
            issuedAt: iso(row.issued_at),
            paidAt: iso(row.paid_at),
            createdAt: iso(row.created_at),
            creditedInvoiceId: row.credited_invoice_id,
            seller: party(row.seller),
            buyer: party(row.buyer),
            lines: row.lines.map((line) => ({
              description: line.description,
              periodStart: line.periodStart,
              periodEnd: line.periodEnd,
              quantity: line.quantity,
              netCents: line.netCents,
              taxCents: line.taxCents,
              totalCents: line.totalCents,
              taxLabel: line.taxLabel,
            })),
            currency: row.currency,
            subtotalCents: row.subtotal_cents,
            taxCents: row.tax_cents,
            totalCents: row.total_cents,
            reverseCharge: row.reverse_charge,
            withdrawalWaiver: withdrawalWaiver(row.withdrawal_waiver, row.withdrawal_waiver_at),
          }),
        ),
      ),
    },
    options,
  );
}

const party = (value: InvoiceParty) => ({
  name: value.name,
  businessName: value.businessName,
  address: value.address,
  postalAddress: postalAddress(value.postalAddress),
  country: value.country,
  taxId: value.taxId,
  email: value.email,
  taxIdCheckedAt: value.taxIdCheckedAt,
  taxIdCheck: taxIdCheck(value.taxIdCheck),
});
