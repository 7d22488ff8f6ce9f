import { LICENSE_MESSAGES, type SaleLicense } from "../../../contracts/licenses";
import { type ChangeDeps, commitChange } from "../../adapters/events/commit-change";
import { notFound } from "../../http/errors";

/**
 * The seller disables a sale's key (verification refuses it at once) or enables it again; its uses are
 * kept. Only the seller's own sales: another seller's order, or a sale without a key, is a 404.
 */
export async function setLicenseDisabled(
  deps: ChangeDeps,
  sellerId: string,
  orderId: string,
  disabled: boolean,
  now: Date,
): Promise<SaleLicense> {
  const row = await commitChange(deps, async (trx, announce) => {
    const changed = await trx
      .updateTable("license_keys")
      .set({ disabled_at: disabled ? now : null })
      .where("order_id", "=", orderId)
      .where("seller_id", "=", sellerId)
      .returning(["key", "disabled_at", "uses"])
      .executeTakeFirst();
    if (!changed) throw notFound(LICENSE_MESSAGES.noKey);
    announce(sellerId, { type: "sales.changed" });
    return changed;
  });
  return { key: row.key, disabled: row.disabled_at !== null, uses: row.uses };
}
