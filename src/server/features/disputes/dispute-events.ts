import type Stripe from "stripe";
import type { Database } from "../../db/database";
import type { EventHandler } from "../webhooks";
import { type RecordDisputeDeps, recordDispute } from "./record-dispute";

type HandlerDeps = RecordDisputeDeps & { stripe: Stripe; db: Database };

/**
 * `charge.dispute.*` on a connected account: the dispute read back from Stripe on the event's account
 * (the event's body is only a hint), then kept by recordDispute in the event's transaction.
 */
function disputeHandler(deps: HandlerDeps): EventHandler {
  return async (event) => {
    if (!event.account) return undefined;
    const { id } = event.data.object as Stripe.Dispute;
    const account = event.account;
    const dispute = await deps.stripe.disputes.retrieve(id, {}, { stripeAccount: account });
    return async (trx, announce, now) => {
      await recordDispute(deps, trx, { dispute, account }, now, announce);
    };
  };
}

/** The dispute events of one-time sales (memberships handle their own periods' disputes too). */
export function disputeEventHandlers(deps: HandlerDeps): Record<string, EventHandler> {
  const handler = disputeHandler(deps);
  return {
    "charge.dispute.created": handler,
    "charge.dispute.updated": handler,
    "charge.dispute.closed": handler,
    "charge.dispute.funds_withdrawn": handler,
    "charge.dispute.funds_reinstated": handler,
  };
}
