import { sql } from "kysely";
import { RECOVERY_RULES, type RecoverySkipReason } from "../../../contracts/checkout-recovery";
import type { Outbox } from "../../adapters/mail/outbox";
import { type Database, inTransaction } from "../../db/database";
import type { JobHandler } from "../../jobs/job-queue";
import { sellerName, unsubscribePath, unsubscribeToken } from "../audience";
import { getPublicProduct } from "../products";
import { recoveryEmail } from "./recovery-email";
import { recoveryPath, recoveryToken } from "./recovery-link";
import { sendRecoveryJob } from "./schedule-recovery";

export interface RecoveryEmailDeps {
  db: Database;
  outbox: Outbox;
  appUrl: string;
  /** Signs the buyer's unsubscribe link (audience's key) and their recovery link. */
  unsubscribeKey: string;
  recoveryKey: string;
}

type RecoveryRow = {
  checkout_id: string;
  seller_id: string;
  product_id: string;
  email: string;
  created_at: Date;
};

/**
 * Why a recovery email due now must not go, or null: the seller turned recovery emails off; the product
 * is gone, unpublished or not for sale; the buyer bought it since they left the checkout; they
 * unsubscribed from the seller's emails; or they got a recovery email about this product within the
 * week. Every read is the seller's.
 */
export async function recoveryBlocker(
  trx: Database,
  row: RecoveryRow & { checkout_created_at: Date },
  now: Date,
): Promise<RecoverySkipReason | null> {
  const store = await trx
    .selectFrom("profiles")
    .select("checkout_recovery_emails")
    .where("id", "=", row.seller_id)
    .executeTakeFirst();
  if (!store?.checkout_recovery_emails) return "turned_off";
  const product = await getPublicProduct(trx, row.product_id, now).catch(() => undefined);
  if (!product || product.seller.id !== row.seller_id || !product.purchasable) return "product_unavailable";
  const bought = await trx
    .selectFrom("orders")
    .select("id")
    .where("seller_id", "=", row.seller_id)
    .where("product_id", "=", row.product_id)
    .where(sql<string>`lower(customer_email)`, "=", row.email)
    .where("status", "=", "completed")
    .where("created_at", ">=", row.checkout_created_at)
    .limit(1)
    .executeTakeFirst();
  if (bought) return "bought";
  const unsubscribed = await trx
    .selectFrom("email_unsubscribes")
    .select("email")
    .where("seller_id", "=", row.seller_id)
    .where("email", "=", row.email)
    .executeTakeFirst();
  if (unsubscribed) return "unsubscribed";
  const recent = await trx
    .selectFrom("checkout_recoveries")
    .select("checkout_id")
    .where("seller_id", "=", row.seller_id)
    .where("product_id", "=", row.product_id)
    .where("email", "=", row.email)
    .where("status", "=", "sent")
    .where("sent_at", ">", new Date(now.getTime() - RECOVERY_RULES.perBuyerProductMs))
    .limit(1)
    .executeTakeFirst();
  if (recent) return "sent_this_week";
  return null;
}

/**
 * Sends one scheduled recovery email, or records why not, in one transaction: the row is locked and
 * only a scheduled one is handled (a job run twice sends once), and the buyer's emails about this
 * product are taken one at a time (an advisory lock on seller, product and email), so two checkouts
 * left together cannot both pass the weekly limit. The email goes through the outbox in the same
 * transaction.
 */
export async function sendRecovery(deps: RecoveryEmailDeps, checkoutId: string, now: Date): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const row = await trx
      .selectFrom("checkout_recoveries")
      .innerJoin("checkouts", "checkouts.id", "checkout_recoveries.checkout_id")
      .select([
        "checkout_recoveries.checkout_id",
        "checkout_recoveries.seller_id",
        "checkout_recoveries.product_id",
        "checkout_recoveries.email",
        "checkout_recoveries.buyer_locale",
        "checkout_recoveries.currency",
        "checkout_recoveries.amount_cents",
        "checkout_recoveries.status",
        "checkout_recoveries.created_at",
        "checkouts.created_at as checkout_created_at",
      ])
      .where("checkout_recoveries.checkout_id", "=", checkoutId)
      .forUpdate("checkout_recoveries")
      .executeTakeFirst();
    if (row?.status !== "scheduled") return;
    const lockKey = `checkout-recovery:${row.seller_id}:${row.product_id}:${row.email}`;
    await sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`.execute(trx);
    const blocker = await recoveryBlocker(trx, row, now);
    if (blocker) {
      await trx
        .updateTable("checkout_recoveries")
        .set({ status: "skipped", skip_reason: blocker })
        .where("checkout_id", "=", checkoutId)
        .execute();
      return;
    }
    const product = await getPublicProduct(trx, row.product_id, now);
    const unsubscribeUrl = `${deps.appUrl}${unsubscribePath(unsubscribeToken(deps.unsubscribeKey, row.seller_id, row.email))}`;
    const recoverUrl = `${deps.appUrl}${recoveryPath(recoveryToken(deps.recoveryKey, row.checkout_id, now))}?lang=${encodeURIComponent(row.buyer_locale)}`;
    await deps.outbox.enqueue(
      recoveryEmail({
        to: row.email,
        locale: row.buyer_locale,
        productTitle: product.title,
        sellerName: await sellerName(trx, row.seller_id),
        amountCents: row.amount_cents,
        currency: row.currency,
        recoverUrl,
        unsubscribeUrl,
      }),
      trx,
    );
    await trx
      .updateTable("checkout_recoveries")
      .set({ status: "sent", sent_at: now })
      .where("checkout_id", "=", checkoutId)
      .execute();
  });
}

/** The job that sends a recovery email when it is due (an hour after its checkout expired). */
export function sendRecoveryJobHandler(deps: RecoveryEmailDeps): JobHandler<{ checkoutId: string }> {
  return {
    kind: sendRecoveryJob,
    concurrency: 2,
    run: async ({ checkoutId }, { now }) => {
      await sendRecovery(deps, checkoutId, now);
      return undefined;
    },
  };
}
