import { sql } from "kysely";
import { MEMBERSHIP_LIMITS } from "../../../contracts/memberships";
import type { Database } from "../../db/database";
import { type JobHandler, jobKind } from "../../jobs/job-queue";
import { yearlyReminderEmail } from "./emails";
import { emailContext, type MembershipDeps } from "./membership-changes";

const DAY_MS = 24 * 60 * 60 * 1000;

type ReminderDeps = Pick<MembershipDeps, "outbox" | "appUrl" | "linkKey"> & { db: Database };
/** Reminders queued per run: a run that fills it runs again at once ("again"), so memory stays bounded. */
const REMINDER_BATCH = 200;

/**
 * Yearly members whose renewal is within 7 days get one reminder per renewal: each is marked with the
 * period end it was sent for in the same transaction that queues its email, so two instances, or a run
 * after a crash, never send it twice.
 */
export async function sendYearlyReminders(deps: ReminderDeps, now: Date): Promise<number> {
  const horizon = new Date(now.getTime() + MEMBERSHIP_LIMITS.yearlyReminderDays * DAY_MS);
  return deps.db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom("memberships")
      .selectAll()
      .where("billing_interval", "=", "year")
      .where("status", "=", "active")
      .where("cancel_at_period_end", "=", false)
      .where("current_period_end", ">", now)
      .where("current_period_end", "<=", horizon)
      .where(sql<boolean>`renewal_reminder_sent_for is distinct from current_period_end`)
      .orderBy("current_period_end")
      .limit(REMINDER_BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const membership of due) {
      await trx
        .updateTable("memberships")
        .set({ renewal_reminder_sent_for: membership.current_period_end })
        .where("id", "=", membership.id)
        .execute();
      await deps.outbox.enqueue(yearlyReminderEmail(await emailContext(deps, trx, membership, now)), trx);
    }
    return due.length;
  });
}

export function renewalReminderJobHandler(deps: ReminderDeps): JobHandler<object> {
  return {
    kind: jobKind<object>("memberships.yearly-reminders"),
    everyMs: 60 * 60 * 1000,
    run: async (_payload, { now }) =>
      (await sendYearlyReminders(deps, now)) === REMINDER_BATCH ? "again" : undefined,
  };
}
