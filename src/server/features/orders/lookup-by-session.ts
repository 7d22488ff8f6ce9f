import type { Database } from "../../db/database";
import { inTransaction } from "../../db/database";
import { notFound } from "../../http/errors";
import { type EventEffects, noEffects } from "../webhooks/process-event";
import { libraryPath, libraryToken } from "./buyer-links";
import { purchaseQuery, toBuyerPurchase } from "./buyer-purchase";
import { type FulfilmentDeps, fulfilCheckout } from "./fulfil-checkout";

/**
 * The success page's lookup by checkout session id (unguessable, and only ever shown to the payer).
 * When the webhook has not arrived yet, asks Stripe and fulfils right here, so the buyer never waits
 * on webhook delivery. 404 while the payment is not complete: the page polls.
 */
export async function lookupOrderBySession(
  deps: FulfilmentDeps & { db: Database },
  sessionId: string,
  now: Date,
): Promise<{ purchase: ReturnType<typeof toBuyerPurchase>; libraryPath: string; effects: EventEffects }> {
  const effects = noEffects();
  let row = await purchaseQuery(deps.db).where("orders.stripe_session_id", "=", sessionId).executeTakeFirst();
  if (!row) {
    const checkout = await deps.db
      .selectFrom("checkouts")
      .select("stripe_account_id")
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirst();
    if (!checkout) throw notFound("Order not found");
    const session = await deps.stripe.checkout.sessions.retrieve(
      sessionId,
      {},
      { stripeAccount: checkout.stripe_account_id },
    );
    const orderId = await inTransaction(deps.db, (trx) => fulfilCheckout(deps, trx, session, now, effects));
    if (!orderId) throw notFound("Order not found");
    row = await purchaseQuery(deps.db).where("orders.id", "=", orderId).executeTakeFirstOrThrow();
  }
  return {
    purchase: toBuyerPurchase(row, deps.linkKey, now),
    libraryPath: libraryPath(libraryToken(deps.linkKey, row.customer_email, now)),
    effects,
  };
}
