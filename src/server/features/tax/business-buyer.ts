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

/** Each check asks VIES whether a number exists: limited per network before anything is asked. */
const VAT_CHECK_LIMIT = { name: "vat-check:ip", limit: 10, windowSeconds: 600 };
const TOO_MANY_CHECKS = "Too many VAT number checks. Please wait a few minutes.";

/**
 * The business details a buyer typed before Checkout, checked before anything is held: a VAT number
 * must be shaped like an EU one and registered in VIES (a number VIES does not know, or VIES not
 * answering, is refused with its reason, and nothing is created). Undefined for a consumer.
 */
export async function checkBusinessBuyer(
  deps: { db: Database; vatChecker: VatNumberChecker },
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
  const vat = parseEuVatNumber(input.vatNumber);
  if (!vat)
    throw new AppError("vat_number_refused", 422, TAX_MESSAGES.vatNumberShape, { field: "vatNumber" });
  await enforceRateLimit(deps.db, VAT_CHECK_LIMIT, network, TOO_MANY_CHECKS, now);
  const check = await deps.vatChecker.check(vat, now);
  if (check.status === "invalid") {
    throw new AppError("vat_number_refused", 422, TAX_MESSAGES.vatNumberInvalid, { field: "vatNumber" });
  }
  if (check.status === "unavailable") {
    throw new AppError("vat_check_unavailable", 503, TAX_MESSAGES.vatNumberUnavailable, {
      field: "vatNumber",
    });
  }
  return { businessName: input.businessName, vat, check };
}
