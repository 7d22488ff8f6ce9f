import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A creator's post to the members of chosen tiers of a membership product: read in the members'
    -- library and emailed to them once, when published. The body is kept as written, in the posts'
    -- small markup (contracts/post-markup.ts), and rendered to escaped HTML whenever it is shown.
    create table membership_posts (
      id text primary key,
      seller_id text not null references "user" ("id") on delete cascade,
      product_id text not null references products (id) on delete cascade,
      title text not null check (length(title) between 1 and 200),
      body text not null check (length(body) <= 50000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- Null while a draft; members see a post (and are emailed) from its publication on.
      published_at timestamptz,
      -- The publication's emails, queued into the outbox in batches by the job posts.queue-emails:
      -- 'sending' until every member was queued, in email order after emails_last_email.
      emails_status text check (emails_status in ('sending', 'sent')),
      emails_last_email text,
      emails_count integer not null default 0
    );
    -- A product's posts, newest first (the seller's list).
    create index membership_posts_product_idx on membership_posts (product_id, created_at desc, id desc);

    -- Which tiers' members see a post.
    create table membership_post_tiers (
      post_id text not null references membership_posts (id) on delete cascade,
      tier_id text not null references membership_tiers (id) on delete cascade,
      primary key (post_id, tier_id)
    );
    -- A library reads a tier's posts.
    create index membership_post_tiers_tier_idx on membership_post_tiers (tier_id, post_id);

    -- Files attached to a post: some of the product's own files, downloaded through the member's
    -- period like the tier's files (3 downloads per file per period). A file removed from the product
    -- leaves its posts.
    create table membership_post_files (
      post_id text not null references membership_posts (id) on delete cascade,
      product_file_id text not null references product_files (id) on delete cascade,
      position integer not null,
      primary key (post_id, product_file_id)
    );
    create index membership_post_files_file_idx on membership_post_files (product_file_id);

    -- A post's emails go to its tiers' members in email order, a batch at a time.
    create index memberships_tier_email_idx on memberships (tier_id, lower(customer_email));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index memberships_tier_email_idx;
    drop table membership_post_files;
    drop table membership_post_tiers;
    drop table membership_posts;
  `.execute(db);
}
