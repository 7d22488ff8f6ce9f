import type Stripe from "stripe";
import { commitChange } from "../../adapters/events/commit-change";
import type { EventBus } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { enqueueJob, type JobHandler, jobKind } from "../../jobs/job-queue";
import { readSubscription } from "./events/membership-events";
import { applySubscription, type MembershipDeps, recordMembershipPayment } from "./membership-changes";
import { readPaidInvoice } from "./paid-invoice";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** How often every account's memberships are compared with Stripe. */
export const RECONCILE_EVERY_MS = 10 * MINUTE_MS;
/**
 * How far back paid invoices are read: past Stripe's 3 days of webhook retries with room to spare, so
 * an outage that long still loses no renewal (a read already applied changes nothing).
 */
export const RECONCILE_INVOICES_DAYS = 7;

export type ReconcileDeps = MembershipDeps & { db: Database; events: EventBus; now: () => Date };

export const reconcileAccountJob = jobKind<{ account: string }>("memberships.reconcile-account");
export const reconcileAllJob = jobKind<object>("memberships.reconcile");

const subscriptionIdOf = (invoice: Stripe.Invoice) => {
  const id = invoice.parent?.subscription_details?.subscription;
  return typeof id === "string" ? id : id?.id;
};

/**
 * Compares one connected account's memberships with Stripe, as the webhooks would have told them:
 * every live subscription read back and applied; every membership we hold as live that Stripe no longer
 * lists (ended while no webhook came) read back; every invoice paid in the last days recorded as its
 * period's order (once, keyed by the invoice). Each read is applied in its own short transaction, a page
 * at a time, so memory stays bounded whatever the number of members.
 */
export async function reconcileAccount(deps: ReconcileDeps, account: string): Promise<void> {
  const startedAt = deps.now();
  const options = { stripeAccount: account };
  const apply = async (subscriptionId: string, invoice?: Stripe.Invoice) => {
    const read = await readSubscription(deps, account, subscriptionId);
    if (!read.subscription.metadata?.seller_id) return;
    const paid = invoice ? await readPaidInvoice(deps, account, invoice, read.subscription) : undefined;
    await commitChange(deps, async (trx, announce) => {
      const membership = await applySubscription(deps, trx, read, deps.now(), announce);
      if (membership && paid)
        await recordMembershipPayment(deps, trx, membership, paid, deps.now(), announce);
    });
  };
  for await (const subscription of deps.stripe.subscriptions.list({ limit: 100 }, options)) {
    if (subscription.metadata?.seller_id) await apply(subscription.id);
  }
  // Live here, not read above: Stripe ended it (or it is past what the list shows) while no event came.
  const stale = await deps.db
    .selectFrom("memberships")
    .select("stripe_subscription_id")
    .where("stripe_account_id", "=", account)
    .where("status", "in", ["trialing", "active", "past_due", "unpaid", "incomplete", "paused"])
    .where("synced_at", "<", startedAt)
    .execute();
  for (const { stripe_subscription_id: id } of stale) await apply(id);
  const since = Math.floor((startedAt.getTime() - RECONCILE_INVOICES_DAYS * DAY_MS) / 1000);
  for await (const invoice of deps.stripe.invoices.list(
    { status: "paid", created: { gte: since }, limit: 100, expand: ["data.payments"] },
    options,
  )) {
    const subscriptionId = subscriptionIdOf(invoice);
    if (subscriptionId) await apply(subscriptionId, invoice);
  }
}

/**
 * The reconciliation as jobs: every 10 minutes one job per connected account holding memberships (or a
 * membership checkout of the last day), so instances share the accounts between them and one slow
 * account delays no other. A failed account's job is retried with the queue's backoff.
 */
export function reconcileJobHandlers(deps: ReconcileDeps): JobHandler<never>[] {
  const perAccount: JobHandler<{ account: string }> = {
    kind: reconcileAccountJob,
    concurrency: 2,
    run: async ({ account }) => {
      await reconcileAccount(deps, account);
      return undefined;
    },
  };
  const all: JobHandler<object> = {
    kind: reconcileAllJob,
    everyMs: RECONCILE_EVERY_MS,
    run: async (_payload, { now }) => {
      const accounts = await accountsToReconcile(deps.db, now);
      await deps.db.transaction().execute(async (trx) => {
        for (const account of accounts) {
          await enqueueJob(trx, reconcileAccountJob, { account }, { uniqueKey: `reconcile:${account}` });
        }
      });
      return undefined;
    },
  };
  return [perAccount as JobHandler<never>, all as JobHandler<never>];
}

/** The connected accounts with memberships to compare: any membership, or a membership checkout of the last day. */
async function accountsToReconcile(db: Database, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("memberships")
    .select("stripe_account_id as account")
    .distinct()
    .union(
      db
        .selectFrom("checkouts")
        .select("stripe_account_id as account")
        .where("membership_tier_id", "is not", null)
        .where("created_at", ">", new Date(now.getTime() - DAY_MS)),
    )
    .execute();
  return rows.map((row) => row.account);
}
