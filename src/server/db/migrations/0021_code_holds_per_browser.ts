import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A code's use is held per browser, not per network: offices, campuses and mobile carriers share
    -- addresses, and neighbours may each use the code (a code's maximum of uses still holds: the use is
    -- taken with a conditional update). The same browser pressing Buy Now twice at once still makes one.
    drop index checkouts_one_code_use_per_network_idx;
    create unique index checkouts_one_code_use_per_browser_idx
      on checkouts (discount_code_id, product_id, visitor_hash)
      where state = 'open' and discount_code_id is not null;
    -- A use of a code with a maximum of uses is held this long (shorter than the Stripe session):
    -- the janitor then expires the session and gives the use back. Null: nothing scarce is held so.
    alter table checkouts add column code_hold_ends_at timestamptz;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table checkouts drop column code_hold_ends_at;
    drop index checkouts_one_code_use_per_browser_idx;
    create unique index checkouts_one_code_use_per_network_idx
      on checkouts (discount_code_id, product_id, network_hash)
      where state = 'open' and discount_code_id is not null;
  `.execute(db);
}
