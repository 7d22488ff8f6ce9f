import type { BillingAddress, TaxIdCheck } from "../../../../contracts/tax";
import { isoOrNull } from "./keyset";

/** The archive's postal address (camelCase fields) from Stripe's shape, as orders and invoices store it. */
export const postalAddress = (address: BillingAddress | null | undefined) =>
  address
    ? {
        line1: address.line1,
        line2: address.line2,
        city: address.city,
        state: address.state,
        postalCode: address.postal_code,
        country: address.country,
      }
    : null;

export const taxIdCheck = (check: TaxIdCheck | null | undefined) =>
  check
    ? {
        status: check.status,
        service: check.service,
        checkedAt: check.checkedAt,
        name: check.name,
        reference: check.reference,
      }
    : null;

/** The withdrawal waiver a buyer accepted (its wording) and when, or null. */
export const withdrawalWaiver = (text: string | null, acceptedAt: Date | null) =>
  text === null ? null : { text, acceptedAt: isoOrNull(acceptedAt) };
