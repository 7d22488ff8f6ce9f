import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A product is sold once (one_time) or as a membership: recurring access, billed by Stripe on the
    -- seller's own account, in 1 to 5 tiers. A membership's price_cents is its lowest monthly price.
    alter table products add column kind text not null default 'one_time'
      check (kind in ('one_time', 'membership'));

    create table membership_tiers (
      id text primary key,
      product_id text not null references products (id) on delete cascade,
      seller_id text not null references "user" ("id"),
      position integer not null check (position between 0 and 4),
      name text not null check (length(name) between 1 and 80),
      description text not null default '',
      monthly_price_cents integer not null check (monthly_price_cents > 0),
      yearly_price_cents integer check (yearly_price_cents > 0),
      trial_days integer not null default 0 check (trial_days between 0 and 30),
      -- Closed to new members; existing members keep it.
      closed boolean not null default false,
      -- A tier removed from the product while members still had it: kept for them, offered to nobody.
      removed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index membership_tiers_product_idx on membership_tiers (product_id, position);

    -- Which of the product's files each tier gives access to.
    create table membership_tier_files (
      tier_id text not null references membership_tiers (id) on delete cascade,
      product_file_id text not null references product_files (id) on delete cascade,
      primary key (tier_id, product_file_id)
    );

    -- The Stripe price of a tier at one amount and interval on one connected account. Prices are
    -- immutable on Stripe: a new amount makes a new price; members keep the one they subscribed at.
    create table membership_tier_prices (
      tier_id text not null references membership_tiers (id) on delete cascade,
      billing_interval text not null check (billing_interval in ('month', 'year')),
      amount_cents integer not null check (amount_cents > 0),
      stripe_account_id text not null,
      stripe_price_id text not null unique,
      created_at timestamptz not null default now(),
      primary key (tier_id, billing_interval, amount_cents, stripe_account_id)
    );

    -- One row per Stripe subscription, as Stripe last reported it (read back from Stripe, never taken
    -- from an event's body): synced_at is when that read was made, and an older read never overwrites
    -- a newer one, whatever order the events arrive in.
    create table memberships (
      id text primary key,
      seller_id text not null references "user" ("id"),
      product_id text references products (id) on delete set null,
      product_title text not null,
      tier_id text references membership_tiers (id) on delete set null,
      tier_name text not null,
      stripe_account_id text not null,
      stripe_subscription_id text not null unique,
      stripe_customer_id text not null,
      customer_email text not null,
      billing_interval text not null check (billing_interval in ('month', 'year')),
      -- What each period costs the member (after a lasting discount), in cents.
      amount_cents integer not null,
      status text not null,
      cancel_at_period_end boolean not null default false,
      current_period_start timestamptz not null,
      current_period_end timestamptz not null,
      trial_end timestamptz,
      past_due_since timestamptz,
      -- The seller ended access (a refund that ends the period, a dispute) though Stripe still bills.
      access_revoked_at timestamptz,
      -- The member turned post emails off.
      post_emails boolean not null default true,
      -- The period end a yearly renewal's reminder was sent for (once per renewal).
      renewal_reminder_sent_for timestamptz,
      started_at timestamptz not null,
      canceled_at timestamptz,
      ended_at timestamptz,
      synced_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index memberships_seller_idx on memberships (seller_id, created_at desc, id desc);
    create index memberships_email_idx on memberships (lower(customer_email));
    -- The members page's search: anywhere in the email, as the customers page's (0020).
    create index memberships_email_trgm_idx on memberships using gin (lower(customer_email) gin_trgm_ops);
    create index memberships_product_idx on memberships (product_id, status);

    -- A discount code on a membership takes off its first payment (once) or every payment (forever), as a
    -- Stripe coupon on the seller's account, made once per code, value and duration.
    alter table discount_codes add column membership_duration text not null default 'once'
      check (membership_duration in ('once', 'forever'));
    create table discount_code_coupons (
      discount_code_id text not null references discount_codes (id) on delete cascade,
      stripe_account_id text not null,
      kind text not null,
      value integer not null,
      duration text not null,
      stripe_coupon_id text not null,
      primary key (discount_code_id, stripe_account_id, kind, value, duration)
    );

    -- A checkout may start a membership: which tier and interval it is for.
    alter table checkouts add column membership_tier_id text references membership_tiers (id) on delete set null;
    alter table checkouts add column billing_interval text check (billing_interval in ('month', 'year'));

    -- Each paid invoice of a membership is an order (a sale of the product for that period): keyed by the
    -- invoice id, with the period it paid for.
    alter table orders add column membership_id text references memberships (id) on delete set null;
    alter table orders add column period_start timestamptz;
    alter table orders add column period_end timestamptz;
    create index orders_membership_idx on orders (membership_id, created_at desc) where membership_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index orders_membership_idx;
    alter table orders drop column period_end;
    alter table orders drop column period_start;
    alter table orders drop column membership_id;
    alter table checkouts drop column billing_interval;
    alter table checkouts drop column membership_tier_id;
    drop table memberships;
    drop table discount_code_coupons;
    alter table discount_codes drop column membership_duration;
    drop table membership_tier_prices;
    drop table membership_tier_files;
    drop table membership_tiers;
    alter table products drop column kind;
  `.execute(db);
}
