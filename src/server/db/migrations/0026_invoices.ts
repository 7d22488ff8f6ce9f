import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Each seller's gapless numbering (docs/tax-and-invoices.md, "Invoices and credit notes"): one row per
    -- seller and kind, its number taken with one upsert inside the order's transaction, so a rolled-back
    -- sale gives its number back and concurrent sales of one seller wait for each other on this row.
    create table invoice_sequences (
      seller_id text not null references "user" ("id") on delete cascade,
      kind text not null check (kind in ('invoice', 'credit_note')),
      last_number integer not null check (last_number > 0),
      primary key (seller_id, kind)
    );

    -- Invoices and credit notes: immutable snapshots of who sold what to whom. A buyer's correction of
    -- their billing details inserts the next version with the same number; the newest version is the
    -- document. Rendered to PDF on demand from these columns, never stored as a file.
    create table invoices (
      id text primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      order_id text not null references orders ("id") on delete cascade,
      kind text not null check (kind in ('invoice', 'credit_note')),
      number integer not null check (number > 0),
      -- The prefix (store_tax_settings.invoice_prefix, "CN" added for credit notes) and the padded number.
      number_text text not null,
      version integer not null default 1 check (version > 0),
      -- The document's date, kept across versions; paid_at is the payment's (the order's) date.
      issued_at timestamptz not null,
      paid_at timestamptz not null,
      created_at timestamptz not null default now(),
      -- A credit note's invoice (the version current when it was issued).
      credited_invoice_id text references invoices ("id") on delete cascade,
      seller jsonb not null,
      buyer jsonb not null,
      lines jsonb not null,
      currency text not null,
      subtotal_cents integer not null,
      tax_cents integer not null,
      total_cents integer not null,
      reverse_charge boolean not null default false,
      -- The withdrawal waiver's wording the buyer accepted, word for word, and when.
      withdrawal_waiver text,
      withdrawal_waiver_at timestamptz,
      unique (seller_id, kind, number, version)
    );
    create index invoices_seller_issued on invoices (seller_id, issued_at desc, id desc);
    create index invoices_order on invoices (order_id, kind, version desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table invoices;
    drop table invoice_sequences;
  `.execute(db);
}
