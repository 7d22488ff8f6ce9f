import { INVOICE_RULES } from "../../../contracts/invoices";
import { SignedTokenError, signToken, verifyToken } from "../../adapters/storage/signed-token";

/**
 * A buyer's signed invoice link (docs/tax-and-invoices.md): the token names the order, signed with the
 * buyer links' key, so no unsigned id ever opens a document. A room of its own because the orders room
 * (receipt, success page, library) makes these links and the invoices room reads them, and the invoices
 * room renders its page with public-pages, which uses orders: here neither needs the other.
 */
const DAY_S = 24 * 60 * 60;

export function invoiceToken(key: string, orderId: string, now: Date): string {
  const expiresAt = Math.floor(now.getTime() / 1000) + INVOICE_RULES.linkDays * DAY_S;
  return signToken({ purpose: "invoice", orderId, expiresAt }, key);
}

/** The order a token names, or undefined when it is tampered with, of another purpose or expired. */
export function readInvoiceToken(token: string, key: string, now: Date): string | undefined {
  try {
    const claims = verifyToken(token, key, now.getTime());
    return claims.purpose === "invoice" && typeof claims.orderId === "string" ? claims.orderId : undefined;
  } catch (error) {
    if (error instanceof SignedTokenError) return undefined;
    throw error;
  }
}

/** The newest version of the order's invoice, as a PDF. */
export const invoicePdfPath = (token: string) => `/invoice/${token}`;
/** The order's credit note, as a PDF. */
export const creditNotePdfPath = (token: string) => `/invoice/${token}/credit-note`;
/** The page where the buyer corrects their billing details. */
export const billingDetailsPath = (token: string) => `/invoice/${token}/billing`;
