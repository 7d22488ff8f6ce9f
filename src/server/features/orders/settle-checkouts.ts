import Stripe from "stripe";
import {
  type CheckoutRef,
  CLOCK_SKEW_SECONDS,
  readCheckoutSession,
  retrieveCheckoutSession,
  type SettleDeps,
  settleCheckout,
} from "./checkout-session";

/** A hold with no session this long after it was recorded: the request creating it died. */
const SESSION_CREATION_MS = 5 * 60_000;
/** A checkout this long past its expiry is settled with Stripe: its expiry event should have come. */
const EXPIRY_GRACE_MS = 5 * 60_000;

/**
 * The money path's safety net, every 2 minutes (jobs/maintenance.ts). Checkouts past their end are
 * settled with Stripe, and payments whose webhook never came are fulfilled. All of it goes through
 * settleCheckout, like the webhook and the success page: one order and one receipt whoever comes first.
 * A checkout Stripe cannot be asked about now is left for the next run, never guessed.
 */
export async function settleCheckouts(deps: SettleDeps, now: Date): Promise<void> {
  const failures = [...(await settleStaleCheckouts(deps, now)), ...(await fulfilUnheardPayments(deps, now))];
  if (failures.length > 0)
    throw new AggregateError(failures, "Some checkouts could not be settled with Stripe");
}

/**
 * Ends a checkout nobody can still be paying for, asking Stripe first: its session, if still open, is
 * expired on Stripe, then paid → fulfilled, expired or never made → the unit goes back. A unit Stripe
 * says was paid is never given back.
 */
export async function closeCheckout(deps: SettleDeps, checkout: CheckoutRef, now: Date): Promise<void> {
  let session = await readCheckoutSession(deps.stripe, checkout);
  if (session?.status === "open")
    session = await expireSession(deps.stripe, checkout.stripe_account_id, session.id);
  await settleCheckout(deps, checkout.id, session, now);
}

/** Expires an open session. If the buyer paid at that very moment, Stripe refuses and the paid session is read back. */
async function expireSession(stripe: Stripe, account: string, sessionId: string) {
  try {
    return await stripe.checkout.sessions.expire(sessionId, {}, { stripeAccount: account });
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    return retrieveCheckoutSession(stripe, sessionId, account);
  }
}

/**
 * Checkouts past their expiry, holds whose session was never recorded, and checkouts whose hold of a
 * code's use lapsed (CODE_HOLD_MS: their session is expired on Stripe first): closed, each on its own.
 */
async function settleStaleCheckouts(deps: SettleDeps, now: Date): Promise<unknown[]> {
  const stale = await deps.db
    .selectFrom("checkouts")
    .select(["id", "stripe_session_id", "stripe_account_id", "created_at"])
    .where("state", "=", "open")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<", new Date(now.getTime() - EXPIRY_GRACE_MS)),
        eb("code_hold_ends_at", "<", now),
        eb.and([
          eb("stripe_session_id", "is", null),
          eb("created_at", "<", new Date(now.getTime() - SESSION_CREATION_MS)),
        ]),
      ]),
    )
    .orderBy("created_at")
    .limit(200)
    .execute();
  const failures: unknown[] = [];
  for (const checkout of stale)
    await closeCheckout(deps, checkout, now).catch((error) => failures.push(error));
  return failures;
}

/**
 * Payments whose webhook never came (an outage longer than Stripe's retries, a wrong webhook secret):
 * for each account with open checkouts, Stripe's completed sessions since the oldest of them.
 */
async function fulfilUnheardPayments(deps: SettleDeps, now: Date): Promise<unknown[]> {
  const open = await deps.db
    .selectFrom("checkouts")
    .select(["id", "stripe_session_id", "stripe_account_id", "created_at"])
    .where("state", "=", "open")
    .where("stripe_session_id", "is not", null)
    .execute();
  const accounts = new Map<string, CheckoutRef[]>();
  for (const checkout of open) {
    accounts.set(checkout.stripe_account_id, [...(accounts.get(checkout.stripe_account_id) ?? []), checkout]);
  }
  const failures: unknown[] = [];
  for (const [account, checkouts] of accounts) {
    // One seller's account refusing (closed, disconnected) must not hold up everyone else's payments.
    await fulfilPaidSessions(deps, account, checkouts, now).catch((error) => failures.push(error));
  }
  return failures;
}

async function fulfilPaidSessions(deps: SettleDeps, account: string, checkouts: CheckoutRef[], now: Date) {
  const bySession = new Map(checkouts.map((checkout) => [checkout.stripe_session_id, checkout.id]));
  const oldest = Math.min(...checkouts.map((checkout) => checkout.created_at.getTime()));
  const since = Math.floor(oldest / 1000) - CLOCK_SKEW_SECONDS;
  const completed = deps.stripe.checkout.sessions.list(
    { status: "complete", limit: 100 },
    { stripeAccount: account },
  );
  for await (const session of completed) {
    if (session.created < since) break;
    const checkoutId = bySession.get(session.id);
    if (checkoutId) await settleCheckout(deps, checkoutId, session, now);
  }
}
