import { type Kysely, sql } from "kysely";

/**
 * The activity a dispute's evidence lists (docs/disputes.md): the buyer's country on each download (the
 * proxy's or CDN's header, BUYER_COUNTRY_HEADER; never the IP itself), and one row per verification of
 * an existing license key (docs/licenses.md), written with the key's use count. A license key is
 * identified by its order (license_keys' primary key), so a verification names the order, and goes with
 * the key, the order or the seller.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table download_logs add column country text
      constraint download_logs_country_check check (country is null or country ~ '^[A-Z]{2}$');

    create table license_verifications (
      id bigint generated always as identity primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      order_id text not null references license_keys (order_id) on delete cascade,
      outcome text not null constraint license_verifications_outcome_check
        check (outcome in ('valid', 'disabled', 'refunded', 'disputed', 'dispute_lost')),
      -- The check asked to count a use (increment_uses_count), and the key's uses after it.
      increment_uses boolean not null,
      uses integer not null check (uses >= 0),
      country text constraint license_verifications_country_check
        check (country is null or country ~ '^[A-Z]{2}$'),
      user_agent text constraint license_verifications_user_agent_check
        check (user_agent is null or length(user_agent) <= 400),
      created_at timestamptz not null default now()
    );
    -- The evidence's read: an order's latest verifications, and their count.
    create index license_verifications_order_created_idx
      on license_verifications (order_id, created_at desc, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table license_verifications;
    alter table download_logs drop column country;
  `.execute(db);
}
