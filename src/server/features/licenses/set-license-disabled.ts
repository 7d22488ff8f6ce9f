import { LICENSE_MESSAGES, type SaleLicense } from "../../../contracts/licenses";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";

/**
 * The seller disables a sale's key (verification refuses it at once) or enables it again; its uses are
 * kept. Only the seller's own sales: another seller's order, or a sale without a key, is a 404.
 */
export async function setLicenseDisabled(
  db: Database,
  sellerId: string,
  orderId: string,
  disabled: boolean,
  now: Date,
): Promise<SaleLicense> {
  const row = await db
    .updateTable("license_keys")
    .set({ disabled_at: disabled ? now : null })
    .where("order_id", "=", orderId)
    .where("seller_id", "=", sellerId)
    .returning(["key", "disabled_at", "uses"])
    .executeTakeFirst();
  if (!row) throw notFound(LICENSE_MESSAGES.noKey);
  return { key: row.key, disabled: row.disabled_at !== null, uses: row.uses };
}
