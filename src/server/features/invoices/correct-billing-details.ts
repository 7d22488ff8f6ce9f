import {
  type BillingDetails,
  INVOICE_MESSAGES,
  INVOICE_RULES,
  type InvoiceParty,
} from "../../../contracts/invoices";
import { hasEuVatPrefix, type TaxIdCheck } from "../../../contracts/tax";
import { type Database, inTransaction } from "../../db/database";
import { AppError, notFound } from "../../http/errors";
import { type VatCheckDeps, type VatRefusals, verifyVatNumber } from "../tax";
import { type IssueDeps, storeDocument } from "./invoice-issued";
import type { InvoiceRow } from "./invoice-pdf";
import { addressLines } from "./invoice-snapshot";
import { newInvoiceId } from "./issue-invoice";

const DAY_MS = 24 * 60 * 60 * 1000;

export type CorrectionDeps = VatCheckDeps & IssueDeps;

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

/**
 * The buyer as corrected: the email stays; a VIES check stands only for the number it checked (the one
 * already on the invoice, or `check`, just made for the new number).
 */
export function correctedBuyer(
  before: InvoiceParty,
  details: BillingDetails,
  check: TaxIdCheck | null = null,
): InvoiceParty {
  const postalAddress = {
    line1: details.line1,
    line2: details.line2,
    city: details.city,
    state: null,
    postal_code: details.postalCode,
    country: details.country,
  };
  const kept = details.taxId && details.taxId === before.taxId;
  const taxIdCheck = kept ? (before.taxIdCheck ?? null) : details.taxId ? check : null;
  return {
    name: details.name,
    businessName: details.businessName,
    address: addressLines(postalAddress, details.country),
    postalAddress,
    country: details.country,
    taxId: details.taxId,
    email: before.email,
    taxIdCheckedAt: kept ? before.taxIdCheckedAt : (taxIdCheck?.checkedAt ?? null),
    taxIdCheck,
  };
}

const CORRECTION_REFUSALS: VatRefusals = {
  field: "taxId",
  shape: INVOICE_MESSAGES.taxIdEuShape,
  invalid: INVOICE_MESSAGES.taxIdNotRegistered,
  unavailable: INVOICE_MESSAGES.taxIdCheckUnavailable,
};

/**
 * A new VAT ID is checked with VIES as at checkout (per-network limit first), before anything is saved:
 * one VIES does not know is refused (422), VIES not answering too (503). The number already on the
 * invoice is not asked again, and other countries' tax IDs (not in VIES) are kept unchecked.
 */
async function checkNewTaxId(
  deps: VatCheckDeps,
  before: InvoiceParty,
  taxId: string | null,
  network: string,
  now: Date,
): Promise<TaxIdCheck | null> {
  if (!taxId || taxId === before.taxId || !hasEuVatPrefix(taxId)) return null;
  const { check } = await verifyVatNumber(deps, taxId, network, now, CORRECTION_REFUSALS);
  return check;
}

/** The newest version of an order's invoice, locked until the transaction ends when `lock`. */
function latestInvoice(db: Database, orderId: string, lock: boolean) {
  const query = db
    .selectFrom("invoices")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("kind", "=", "invoice")
    .orderBy("version", "desc")
    .limit(1);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

async function openInvoice(db: Database, orderId: string, now: Date, lock: boolean): Promise<InvoiceRow> {
  const latest = await latestInvoice(db, orderId, lock);
  if (!latest) throw notFound(INVOICE_MESSAGES.notFound);
  const blocker = await correctionBlocker(db, latest, now);
  if (blocker) throw new AppError("correction_closed", 409, blocker);
  return latest;
}

/**
 * A buyer's correction of their billing details (within 30 days, on the app's clock): the invoice's
 * next version, same number and date, the new buyer block, everything else as issued, with its
 * `invoice.issued` webhook. A new EU VAT ID is checked with VIES first, outside the transaction (no row
 * stays locked while VIES is asked); refused, nothing changes. The tax stays as Stripe calculated it at
 * the sale: only the document's buyer changes, and the check is recorded on it. The newest version's
 * row is locked, so two corrections at once make versions 2 and 3, never two 2s.
 */
export async function correctBillingDetails(
  deps: CorrectionDeps & { db: Database },
  orderId: string,
  details: BillingDetails,
  network: string,
  now: Date,
): Promise<InvoiceRow> {
  const current = await openInvoice(deps.db, orderId, now, false);
  const check = await checkNewTaxId(deps, current.buyer, details.taxId, network, now);
  return inTransaction(deps.db, async (trx) => {
    const latest = await openInvoice(trx, orderId, now, true);
    const row: InvoiceRow = {
      ...latest,
      id: newInvoiceId(),
      version: latest.version + 1,
      created_at: now,
      buyer: correctedBuyer(latest.buyer, details, check),
    };
    await storeDocument(trx, deps, row, now);
    return row;
  });
}
