import type { BuyerLicense } from "../../../contracts/licenses";

/** The receipt's lines about the purchase's license key; none when its product issues no keys. */
export function licenseKeyParagraphs(license: BuyerLicense | null | undefined): string[] {
  if (!license) return [];
  return [`Your license key: ${license.key}`, "Keep it: the software you bought asks for it."];
}
