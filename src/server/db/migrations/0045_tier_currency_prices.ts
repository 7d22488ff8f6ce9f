import { type Kysely, sql } from "kysely";

/**
 * A membership tier's fixed prices in other currencies (docs/money.md, docs/memberships.md): per currency
 * its monthly price and, when the tier has a yearly price, its yearly one (`yearly_cents` null otherwise).
 * A buyer in that currency subscribes at exactly these amounts; the tier's Stripe price per currency is
 * made lazily as the store currency's is (`membership_tier_prices` already keys them by currency).
 * Written as a whole with the tier list; a deleted tier takes its prices with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table membership_tier_currency_prices (
      tier_id text not null references membership_tiers(id) on delete cascade,
      seller_id text not null,
      currency text not null
        constraint membership_tier_currency_prices_currency_check check (currency ~ '^[a-z]{3}$'),
      monthly_cents integer not null
        constraint membership_tier_currency_prices_monthly_check check (monthly_cents > 0),
      yearly_cents integer
        constraint membership_tier_currency_prices_yearly_check check (yearly_cents > 0),
      primary key (tier_id, currency)
    );
    create index membership_tier_currency_prices_seller_idx
      on membership_tier_currency_prices (seller_id, currency);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table membership_tier_currency_prices;`.execute(db);
}
