import { createHash } from "node:crypto";

/**
 * Ids of what an import creates, derived from the seller, the platform and the platform's own id: a run
 * cut short between creating a row and recording its link finds the row by the same id when it resumes,
 * so nothing is ever created twice (docs/store-import.md, "Idempotent").
 */
function derivedId(parts: string[], bytes: number): string {
  return createHash("sha256").update(parts.join("\u0000")).digest().subarray(0, bytes).toString("base64url");
}

export const importedProductId = (sellerId: string, platform: string, externalId: string) =>
  derivedId(["product", sellerId, platform, externalId], 9);

export const importedOrderId = (sellerId: string, platform: string, externalId: string) =>
  `ord_${derivedId(["order", sellerId, platform, externalId], 10)}`;

/** The checkout row an imported order points to (orders reference a checkout); never a Stripe session. */
export const importedCheckoutId = (sellerId: string, platform: string, externalId: string) =>
  `imp_${derivedId(["checkout", sellerId, platform, externalId], 15)}`;

/**
 * The id of an archive's record here (docs/store-import.md, "Importing a Flatfee archive") when the
 * source's own id is taken on this instance: derived, so a resumed run picks the same one.
 */
export const importedRecordId = (kind: string, sellerId: string, platform: string, externalId: string) =>
  `${kind.slice(0, 4)}_${derivedId([kind, sellerId, platform, externalId], 12)}`;
