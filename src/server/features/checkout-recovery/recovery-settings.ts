import type { RecoverySettings } from "../../../contracts/checkout-recovery";
import type { Database } from "../../db/database";

/** The seller's switch for recovery emails (on by default: docs/checkout-recovery.md says why). */
export async function getRecoverySettings(db: Database, sellerId: string): Promise<RecoverySettings> {
  const row = await db
    .selectFrom("profiles")
    .select("checkout_recovery_emails")
    .where("id", "=", sellerId)
    .executeTakeFirst();
  return { enabled: row?.checkout_recovery_emails ?? true };
}

/**
 * Turns recovery emails on or off for the seller's store. Off: Checkout stops asking buyers whether they
 * want to hear from the store, and emails already scheduled are skipped when due.
 */
export async function updateRecoverySettings(
  db: Database,
  sellerId: string,
  settings: RecoverySettings,
): Promise<RecoverySettings> {
  await db
    .updateTable("profiles")
    .set({ checkout_recovery_emails: settings.enabled })
    .where("id", "=", sellerId)
    .execute();
  return getRecoverySettings(db, sellerId);
}
