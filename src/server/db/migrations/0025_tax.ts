import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A store's tax and invoice settings (docs/tax-and-invoices.md), one row per seller, made when first
    -- saved. Tax is Stripe Tax on the seller's own connected account: the seller is the seller of record.
    create table store_tax_settings (
      seller_id text primary key references "user" ("id") on delete cascade,
      -- "Collect tax automatically": Checkout runs with automatic_tax on the seller's account.
      collect_tax boolean not null default false,
      -- Whether product prices include tax (Stripe's tax_behavior on every line).
      tax_behavior text not null default 'exclusive' check (tax_behavior in ('inclusive', 'exclusive')),
      -- What Stripe last said of the account's tax settings (GET /v1/tax/settings, tax.settings.updated).
      stripe_tax_status text check (stripe_tax_status in ('active', 'pending')),
      stripe_tax_missing_fields jsonb,
      head_office_country text,
      stripe_tax_checked_at timestamptz,
      -- The seller as invoices name them.
      legal_name text check (length(legal_name) <= 200),
      legal_address text check (length(legal_address) <= 500),
      tax_id text check (length(tax_id) <= 40),
      invoice_prefix text not null default 'INV-' check (length(invoice_prefix) <= 20),
      -- Buyers waive the EU right of withdrawal before paying for a download; the seller may stop asking
      -- buyers outside the EU and UK, never buyers inside.
      waiver_outside_eu boolean not null default true,
      updated_at timestamptz not null default now()
    );

    -- What a product is for tax (Stripe tax code, contracts/tax.ts); null: from its files' types.
    alter table products add column tax_category text
      check (tax_category in ('ebook', 'software', 'audio', 'video', 'other'));

    -- A business buyer's details given before Checkout, and the VAT number's check; the withdrawal
    -- waiver's wording when Checkout asked for it.
    alter table checkouts
      add column buyer_business_name text,
      add column buyer_tax_id text,
      add column buyer_tax_id_check jsonb,
      add column withdrawal_waiver text;

    -- What Stripe Tax said of an order, and who bought it (the invoice's buyer). tax_cents is part of
    -- amount_cents; amount_cents - tax_cents is the net price. tax_rate is Stripe's percentage as text.
    alter table orders
      add column tax_cents integer not null default 0 check (tax_cents >= 0),
      add column tax_behavior text check (tax_behavior in ('inclusive', 'exclusive')),
      add column tax_rate text,
      add column tax_type text,
      add column tax_jurisdiction text,
      add column taxability_reason text,
      add column buyer_name text,
      add column buyer_address jsonb,
      add column buyer_country text,
      add column buyer_state text,
      add column buyer_business_name text,
      add column buyer_tax_id text,
      add column buyer_tax_id_check jsonb,
      add column reverse_charge boolean not null default false,
      add column withdrawal_waiver text,
      add column withdrawal_waiver_at timestamptz;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table orders
      drop column tax_cents, drop column tax_behavior, drop column tax_rate, drop column tax_type,
      drop column tax_jurisdiction, drop column taxability_reason, drop column buyer_name,
      drop column buyer_address, drop column buyer_country, drop column buyer_state,
      drop column buyer_business_name, drop column buyer_tax_id, drop column buyer_tax_id_check,
      drop column reverse_charge, drop column withdrawal_waiver, drop column withdrawal_waiver_at;
    alter table checkouts
      drop column buyer_business_name, drop column buyer_tax_id, drop column buyer_tax_id_check,
      drop column withdrawal_waiver;
    alter table products drop column tax_category;
    drop table store_tax_settings;
  `.execute(db);
}
