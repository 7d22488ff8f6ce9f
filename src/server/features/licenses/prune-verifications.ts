import { sql } from "kysely";
import { DISPUTE_LIMITS } from "../../../contracts/disputes";
import type { Database } from "../../db/database";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The verification log's retention (docs/disputes.md): rows older than the longest dispute window go,
 * and of a key checked more often than that, all but its newest `verificationsKeptPerKey` rows. A
 * housekeeping job (jobs/maintenance.ts) runs it every hour, so a key in a loop never grows past a day's
 * worth of checks over the cap.
 */
export async function pruneLicenseVerifications(db: Database, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - DISPUTE_LIMITS.verificationLogDays * DAY_MS);
  await db.deleteFrom("license_verifications").where("created_at", "<", cutoff).execute();
  const kept = DISPUTE_LIMITS.verificationsKeptPerKey;
  await sql`
    delete from license_verifications
    where id in (
      select id from (
        select id, row_number() over (partition by order_id order by created_at desc, id desc) as place
        from license_verifications
        where order_id in (
          select order_id from license_verifications group by order_id having count(*) > ${kept}
        )
      ) ranked
      where place > ${kept}
    )
  `.execute(db);
}
