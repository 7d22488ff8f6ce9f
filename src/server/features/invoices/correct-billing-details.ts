import { randomBytes } from "node:crypto";
import {
  type BillingDetails,
  INVOICE_MESSAGES,
  INVOICE_RULES,
  type InvoiceParty,
} from "../../../contracts/invoices";
import { type Database, inTransaction } from "../../db/database";
import { AppError, notFound } from "../../http/errors";
import type { InvoiceRow } from "./invoice-pdf";
import { addressLines } from "./invoice-snapshot";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Why the order's invoice can no longer be corrected, or null while it can. */
export async function correctionBlocker(
  db: Database,
  invoice: InvoiceRow,
  now: Date,
): Promise<string | null> {
  const credited = await db
    .selectFrom("invoices")
    .select("id")
    .where("order_id", "=", invoice.order_id)
    .where("kind", "=", "credit_note")
    .executeTakeFirst();
  if (credited) return INVOICE_MESSAGES.correctionRefunded;
  if (now.getTime() > correctionEndsAt(invoice).getTime()) return INVOICE_MESSAGES.correctionClosed;
  return null;
}

/** The last moment the buyer may correct their details: 30 days after the purchase. */
export const correctionEndsAt = (invoice: Pick<InvoiceRow, "paid_at">) =>
  new Date(invoice.paid_at.getTime() + INVOICE_RULES.correctionDays * DAY_MS);

/** The buyer as corrected: the email stays; a VIES check stands only for the number it checked. */
export function correctedBuyer(before: InvoiceParty, details: BillingDetails): InvoiceParty {
  const postalAddress = {
    line1: details.line1,
    line2: details.line2,
    city: details.city,
    state: null,
    postal_code: details.postalCode,
    country: details.country,
  };
  return {
    name: details.name,
    businessName: details.businessName,
    address: addressLines(postalAddress, details.country),
    postalAddress,
    country: details.country,
    taxId: details.taxId,
    email: before.email,
    taxIdCheckedAt: details.taxId && details.taxId === before.taxId ? before.taxIdCheckedAt : null,
  };
}

/**
 * A buyer's correction of their billing details (within 30 days, on the app's clock): the invoice's
 * next version, same number and date, the new buyer block, everything else as issued. The tax stays as
 * Stripe calculated it at the sale; only the document's buyer changes. The newest version's row is
 * locked, so two corrections at once make versions 2 and 3, never two 2s.
 */
export function correctBillingDetails(
  db: Database,
  orderId: string,
  details: BillingDetails,
  now: Date,
): Promise<InvoiceRow> {
  return inTransaction(db, async (trx) => {
    const latest = await trx
      .selectFrom("invoices")
      .selectAll()
      .where("order_id", "=", orderId)
      .where("kind", "=", "invoice")
      .orderBy("version", "desc")
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!latest) throw notFound(INVOICE_MESSAGES.notFound);
    const blocker = await correctionBlocker(trx, latest, now);
    if (blocker) throw new AppError("correction_closed", 409, blocker);
    const row: InvoiceRow = {
      ...latest,
      id: `inv_${randomBytes(10).toString("base64url")}`,
      version: latest.version + 1,
      created_at: now,
      buyer: correctedBuyer(latest.buyer, details),
    };
    await trx
      .insertInto("invoices")
      .values({
        ...row,
        seller: JSON.stringify(row.seller),
        buyer: JSON.stringify(row.buyer),
        lines: JSON.stringify(row.lines),
      })
      .execute();
    return row;
  });
}
