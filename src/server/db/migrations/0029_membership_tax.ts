import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A tier's Stripe price carries its tax behaviour and its product's tax code once a store collects tax
    -- (docs/tax-and-invoices.md, "Memberships"). Stripe's prices are immutable and a price's tax_behavior
    -- can be set only once, so each behaviour and code is a price of its own. The prices made before
    -- stay what they were: 'unspecified', no tax code ('').
    alter table membership_tier_prices
      add column tax_behavior text not null default 'unspecified'
        check (tax_behavior in ('unspecified', 'exclusive', 'inclusive')),
      add column tax_code text not null default '';
    alter table membership_tier_prices drop constraint membership_tier_prices_pkey;
    alter table membership_tier_prices add primary key
      (tier_id, billing_interval, amount_cents, stripe_account_id, tax_behavior, tax_code);

    -- The withdrawal waiver the member accepted on the membership's Checkout (its wording and when it
    -- was recorded): every period's order carries it.
    alter table memberships
      add column withdrawal_waiver text,
      add column withdrawal_waiver_at timestamptz;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table memberships drop column withdrawal_waiver, drop column withdrawal_waiver_at;
    -- Only the prices made without tax fit the old key.
    delete from membership_tier_prices where tax_behavior <> 'unspecified' or tax_code <> '';
    alter table membership_tier_prices drop constraint membership_tier_prices_pkey;
    alter table membership_tier_prices add primary key (tier_id, billing_interval, amount_cents, stripe_account_id);
    alter table membership_tier_prices drop column tax_behavior, drop column tax_code;
  `.execute(db);
}
