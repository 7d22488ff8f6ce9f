import type { TaxIdCheck, VatNumber } from "../../../contracts/tax";

/**
 * Checks that an EU VAT number is registered (VIES, the EU's own service). Chosen at boot: VIES over
 * the internet in production, the local stand-in in the embedded setup, which has no internet.
 */
export interface VatNumberChecker {
  check(vat: VatNumber, now: Date): Promise<TaxIdCheck>;
}

/**
 * The embedded stand-in: any well-formed number is registered, except two documented families so
 * tests and demos can see the other answers: numbers ending in 000 are not registered, numbers
 * ending in 999 find the service down.
 */
export const localVatChecker: VatNumberChecker = {
  async check(vat, now) {
    const status = vat.number.endsWith("000")
      ? "invalid"
      : vat.number.endsWith("999")
        ? "unavailable"
        : "valid";
    return {
      status,
      service: "local",
      checkedAt: now.toISOString(),
      name: status === "valid" ? "Registered business (local stand-in)" : null,
      reference: status === "valid" ? `LOCAL-${vat.prefix}${vat.number}` : null,
    };
  },
};

/** VIES's REST answer (the fields we read). */
interface ViesAnswer {
  valid?: boolean;
  name?: string;
  requestIdentifier?: string;
  userError?: string;
}

const VIES_URL = "https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number";

/**
 * VIES over HTTP (POST check-vat-number). A member state's service being down, a timeout or an
 * unexpected answer is "unavailable", never "invalid": the buyer is told to try again, not that their
 * number is wrong.
 */
export function viesVatChecker(url = VIES_URL, timeoutMs = 8000): VatNumberChecker {
  return {
    async check(vat, now) {
      const unavailable: TaxIdCheck = {
        status: "unavailable",
        service: "vies",
        checkedAt: now.toISOString(),
        name: null,
        reference: null,
      };
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ countryCode: vat.prefix, vatNumber: vat.number }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) return unavailable;
        const answer = (await response.json()) as ViesAnswer;
        if (
          typeof answer.valid !== "boolean" ||
          (answer.userError && answer.userError !== "VALID" && answer.userError !== "INVALID")
        ) {
          return unavailable;
        }
        return {
          status: answer.valid ? "valid" : "invalid",
          service: "vies",
          checkedAt: now.toISOString(),
          name: answer.name && answer.name !== "---" ? answer.name : null,
          reference: answer.requestIdentifier || null,
        };
      } catch {
        return unavailable;
      }
    },
  };
}
