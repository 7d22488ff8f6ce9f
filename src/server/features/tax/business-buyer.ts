import {
  type BusinessBuyer,
  parseEuVatNumber,
  TAX_MESSAGES,
  type TaxIdCheck,
  type VatNumber,
} from "../../../contracts/tax";
import type { VatNumberChecker } from "../../adapters/vat-check/vat-checker";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";
import { enforceRateLimit } from "../../http/rate-limit";

/** A business buyer, checked: their name for the invoice, and their VAT number with VIES's answer. */
export interface BusinessBuyerCheck {
  businessName: string;
  vat?: VatNumber;
  check?: TaxIdCheck;
}

export interface VatCheckDeps {
  db: Database;
  vatChecker: VatNumberChecker;
}

/** Each check asks VIES whether a number exists: limited per network before anything is asked. */
const VAT_CHECK_LIMIT = { name: "vat-check:ip", limit: 10, windowSeconds: 600 };

/** What a refused number is told, and the field it is about, where the number was typed. */
export interface VatRefusals {
  field: string;
  shape: string;
  invalid: string;
  unavailable: string;
}

const CHECKOUT_REFUSALS: VatRefusals = {
  field: "vatNumber",
  shape: TAX_MESSAGES.vatNumberShape,
  invalid: TAX_MESSAGES.vatNumberInvalid,
  unavailable: TAX_MESSAGES.vatNumberUnavailable,
};

/**
 * A VAT number checked with VIES (the `VatNumberChecker` chosen at boot): it must be shaped like an EU
 * one, then the network's limit (10 checks in 10 minutes, shared by every place that checks) is
 * counted before VIES is asked. A number VIES does not know is refused (422 `vat_number_refused`),
 * VIES not answering too (503 `vat_check_unavailable`); only a registered number comes back.
 */
export async function verifyVatNumber(
  deps: VatCheckDeps,
  input: string,
  network: string,
  now: Date,
  refusals: VatRefusals,
): Promise<{ vat: VatNumber; check: TaxIdCheck }> {
  const details = { field: refusals.field };
  const vat = parseEuVatNumber(input);
  if (!vat) throw new AppError("vat_number_refused", 422, refusals.shape, details);
  await enforceRateLimit(deps.db, VAT_CHECK_LIMIT, network, TAX_MESSAGES.tooManyVatChecks, now);
  const check = await deps.vatChecker.check(vat, now);
  if (check.status === "invalid") throw new AppError("vat_number_refused", 422, refusals.invalid, details);
  if (check.status === "unavailable") {
    throw new AppError("vat_check_unavailable", 503, refusals.unavailable, details);
  }
  return { vat, check };
}

/**
 * The business details a buyer typed before Checkout, checked before anything is held: a VAT number
 * must be shaped like an EU one and registered in VIES (a number VIES does not know, or VIES not
 * answering, is refused with its reason, and nothing is created). Undefined for a consumer.
 */
export async function checkBusinessBuyer(
  deps: VatCheckDeps,
  input: BusinessBuyer,
  network: string,
  now: Date,
): Promise<BusinessBuyerCheck | undefined> {
  if (!input.businessName && !input.vatNumber) return undefined;
  if (!input.businessName) {
    throw new AppError("business_name_required", 422, TAX_MESSAGES.businessNameRequired, {
      field: "businessName",
    });
  }
  if (!input.vatNumber) return { businessName: input.businessName };
  const { vat, check } = await verifyVatNumber(deps, input.vatNumber, network, now, CHECKOUT_REFUSALS);
  return { businessName: input.businessName, vat, check };
}
