import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A checkout is recorded (with its unit, in one transaction) before Stripe is asked for a session,
    -- so it gets an id of its own; the session id is attached once Stripe answers.
    alter table checkouts add column id text;
    update checkouts set id = 'hold_' || stripe_session_id;
    alter table checkouts alter column id set not null;
    alter table orders drop constraint orders_stripe_session_id_fkey;
    alter table checkouts drop constraint checkouts_pkey;
    alter table checkouts add primary key (id);
    alter table checkouts alter column stripe_session_id drop not null;
    alter table checkouts add constraint checkouts_stripe_session_id_key unique (stripe_session_id);
    alter table orders add constraint orders_stripe_session_id_fkey
      foreign key (stripe_session_id) references checkouts (stripe_session_id);

    -- open: the buyer may still pay (or the session is being created); paid: an order exists;
    -- expired: Stripe ended the session (or never made one) unpaid.
    alter table checkouts add column state text not null default 'open'
      check (state in ('open', 'paid', 'expired'));
    update checkouts set state = 'paid'
      where exists (select 1 from orders where orders.stripe_session_id = checkouts.stripe_session_id);
    update checkouts set state = 'expired' where state = 'open' and reservation = 'released';
    -- What the janitor and the reconciliation look at: the few checkouts still open.
    drop index checkouts_held_expiry_idx;
    create index checkouts_open_idx on checkouts (stripe_account_id, created_at) where state = 'open';

    -- Who holds a unit: keyed hashes of the buyer's network (IPv4 address or IPv6 /64) and of network
    -- plus browser. The IP itself is never stored. One network holds one unit of a product at a time.
    alter table checkouts add column network_hash text;
    alter table checkouts add column visitor_hash text;
    create unique index checkouts_one_hold_per_network_idx on checkouts (product_id, network_hash)
      where reservation = 'held';

    -- A storage link serves one download: the first full request of the link marks its download used.
    alter table download_logs add column link_used_at timestamptz;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table download_logs drop column link_used_at;
    drop index checkouts_one_hold_per_network_idx;
    alter table checkouts drop column visitor_hash;
    alter table checkouts drop column network_hash;
    drop index checkouts_open_idx;
    create index checkouts_held_expiry_idx on checkouts (expires_at) where reservation = 'held';
    alter table checkouts drop column state;
    delete from checkouts where stripe_session_id is null;
    alter table orders drop constraint orders_stripe_session_id_fkey;
    alter table checkouts drop constraint checkouts_stripe_session_id_key;
    alter table checkouts drop constraint checkouts_pkey;
    alter table checkouts alter column stripe_session_id set not null;
    alter table checkouts add primary key (stripe_session_id);
    alter table checkouts drop column id;
    alter table orders add constraint orders_stripe_session_id_fkey
      foreign key (stripe_session_id) references checkouts (stripe_session_id);
  `.execute(db);
}
