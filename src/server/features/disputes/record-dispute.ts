import type Stripe from "stripe";
import { saleDisputeStatusOf } from "../../../contracts/disputes";
import type { Announce } from "../../adapters/events/commit-change";
import type { Outbox } from "../../adapters/mail/outbox";
import type { Database } from "../../db/database";
import type { OrderChanges } from "../order-lifecycle";
import { queueSaleDisputeWebhooks } from "../seller-webhooks";
import { enqueueAutoSubmit } from "./auto-submit-job";
import { disputeClosedEmail, disputeOpenedEmail } from "./emails";

export interface RecordDisputeDeps {
  outbox: Outbox;
  appUrl: string;
  orderChanges: OrderChanges;
}

/** A dispute as read back from Stripe on the account the event came from. */
export interface DisputeRead {
  dispute: Stripe.Dispute;
  account: string;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

// An inquiry (`warning_*`) that closes without becoming a chargeback ends like a won dispute: no money moved.
const isClosed = (status: string) => status === "won" || status === "lost" || status === "warning_closed";
const outcomeOf = (status: string): "won" | "lost" => (status === "lost" ? "lost" : "won");
const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

/**
 * Keeps a dispute of a one-time sale as Stripe answered it (docs/disputes.md), in the event's transaction:
 * the `disputes` row, the order's dispute state (open suspends its downloads and license key, won restores
 * them, lost keeps them off), and, on each change of state only, the creator's email and `sale.disputed` /
 * `sale.dispute_closed`. A dispute of another kind of payment (a membership's period) or of a payment
 * that is not one of ours is left alone. Every event of a dispute lands here; what changed is worked out
 * from the row, so a second event (or a redelivery past `stripe_events`) never emails twice.
 */
export async function recordDispute(
  deps: RecordDisputeDeps,
  trx: Database,
  read: DisputeRead,
  now: Date,
  announce: Announce,
): Promise<void> {
  const { dispute, account } = read;
  const intent = idOf(dispute.payment_intent);
  if (!intent) return;
  const order = await trx
    .selectFrom("orders")
    .select([
      "id",
      "seller_id",
      "product_id",
      "product_title",
      "customer_email",
      "status",
      "settlement_cents",
    ])
    .where("stripe_account_id", "=", account)
    .where("payment_intent_id", "=", intent)
    .where("membership_id", "is", null)
    .forUpdate()
    .executeTakeFirst();
  if (!order) return;
  const before = await trx
    .selectFrom("disputes")
    .select(["status", "submitted_at", "auto_submit", "due_by"])
    .where("id", "=", dispute.id)
    .forUpdate()
    .executeTakeFirst();
  const closed = isClosed(dispute.status);
  const wasClosed = before ? isClosed(before.status) : false;
  const dueBy = seconds(dispute.evidence_details?.due_by);
  // Evidence submitted elsewhere (the Stripe Dashboard) counts as submitted here too.
  const submittedElsewhere = (dispute.evidence_details?.submission_count ?? 0) > 0 && !before?.submitted_at;
  const row = {
    status: dispute.status,
    amount_cents: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    due_by: dueBy,
    outcome: closed ? outcomeOf(dispute.status) : null,
    updated_at: now,
  };
  await trx
    .insertInto("disputes")
    .values({
      id: dispute.id,
      seller_id: order.seller_id,
      order_id: order.id,
      stripe_account_id: account,
      charge_id: idOf(dispute.charge),
      ...row,
      submitted_at: submittedElsewhere ? now : null,
      closed_at: closed ? now : null,
      created_at: now,
    })
    .onConflict((conflict) =>
      conflict.column("id").doUpdateSet({
        ...row,
        ...(submittedElsewhere ? { submitted_at: now } : {}),
        ...(closed && !wasClosed ? { closed_at: now } : {}),
      }),
    )
    .execute();
  await trx
    .updateTable("orders")
    .set({ dispute_id: dispute.id, dispute_status: saleDisputeStatusOf(dispute.status) })
    .where("id", "=", order.id)
    .execute();

  const opened = !before;
  const justClosed = closed && !wasClosed;
  // Lost is final: the money is gone as by a refund, so the seller's totals, customers and analytics take
  // the sale back once, when the dispute closes (a refunded order was taken back already).
  if (justClosed && dispute.status === "lost" && order.status === "completed") {
    await deps.orderChanges.disputeLost(trx, {
      orderId: order.id,
      sellerId: order.seller_id,
      productId: order.product_id,
      email: order.customer_email,
      amountCents: order.settlement_cents,
      at: now,
    });
  }
  if (opened || justClosed) {
    const seller = await trx
      .selectFrom("user")
      .select("email")
      .where("id", "=", order.seller_id)
      .executeTakeFirst();
    const facts = {
      disputeId: dispute.id,
      productTitle: order.product_title,
      customerEmail: order.customer_email,
      amountCents: dispute.amount,
      currency: dispute.currency,
      reason: dispute.reason,
      dueBy,
      appUrl: deps.appUrl,
    };
    if (seller && opened && !closed)
      await deps.outbox.enqueue(disputeOpenedEmail({ ...facts, to: seller.email }), trx);
    if (seller && justClosed) {
      await deps.outbox.enqueue(
        disputeClosedEmail({ ...facts, to: seller.email }, outcomeOf(dispute.status)),
        trx,
      );
    }
    if (opened)
      await queueSaleDisputeWebhooks(trx, {
        orderId: order.id,
        sellerId: order.seller_id,
        at: now,
        type: "sale.disputed",
      });
    if (justClosed)
      await queueSaleDisputeWebhooks(trx, {
        orderId: order.id,
        sellerId: order.seller_id,
        at: now,
        type: "sale.dispute_closed",
      });
  }
  // A deadline Stripe moved moves a pending auto-submission with it.
  if (before?.auto_submit && !before.submitted_at && dueBy && before.due_by?.getTime() !== dueBy.getTime()) {
    await enqueueAutoSubmit(trx, dispute.id, dueBy, now);
  }
  announce(order.seller_id, { type: "sales.changed" });
}
