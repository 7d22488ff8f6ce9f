import type { Translator } from "../../../contracts/i18n/translator";
import type { BuyerLicense } from "../../../contracts/licenses";

/** The receipt's lines about the purchase's license key, in the receipt's language; none when its product issues no keys. */
export function licenseKeyParagraphs(license: BuyerLicense | null | undefined, tr: Translator): string[] {
  if (!license) return [];
  return [tr.t("email.license.key", { key: license.key }), tr.t("email.license.keep")];
}
