import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../../tests/api/support/test-database";
import type { DatabaseHandle } from "../database";
import { down, up } from "./0013_product_files";
import { down as downMemberships } from "./0023_memberships";
import { down as downMembershipPosts } from "./0024_membership_posts";
import { down as downTierCurrencyPrices } from "./0045_tier_currency_prices";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe("0013_product_files", () => {
  it("moves every product's one file into product_files, with the downloads already made", async () => {
    const db = database.db;
    // The schema as it was before: products with one file column (tiers' and posts' files point at
    // product_files; tiers' other prices at tiers).
    await downTierCurrencyPrices(db as never);
    await downMembershipPosts(db as never);
    await downMemberships(db as never);
    await down(db as never);
    // Only the rows this migration reads; the checkouts orders point to are beside the point.
    await sql`
      set session_replication_role = replica;
      insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
        values ('u1', 'Seller', 'seller@example.com', true, now(), now());
      insert into uploads (id, seller_id, purpose, status, original_name, declared_size_bytes, declared_type,
          upload_key, bucket, storage_key, size_bytes, content_type, expires_at)
        values ('up1', 'u1', 'product-file', 'attached', 'guide.pdf', 10, 'application/pdf',
          'u1/a.pdf', 'product-files', 'u1/b.pdf', 10, 'application/pdf', now());
      insert into products (id, user_id, title, price_cents, file_upload_id, file_name, file_size_bytes, file_type,
          inventory_type)
        values ('p1', 'u1', 'Guide', 500, 'up1', 'guide.pdf', 10, 'application/pdf', 'unlimited');
      insert into orders (id, stripe_session_id, stripe_account_id, seller_id, product_id, product_title,
          customer_email, amount_cents, settlement_cents, settlement_currency, status, downloads_used,
          download_window_ends_at)
        values ('o1', 'cs_1', 'acct_1', 'u1', 'p1', 'Guide', 'b@example.com', 500, 500, 'usd', 'completed', 2, now()),
               ('o2', 'cs_2', 'acct_1', 'u1', 'p1', 'Guide', 'c@example.com', 500, 500, 'usd', 'completed', 0, now());
      set session_replication_role = default;
    `.execute(db);

    await up(db as never);

    const files = await db.selectFrom("product_files").selectAll().execute();
    expect(files).toMatchObject([
      { product_id: "p1", upload_id: "up1", position: 0, display_name: "guide.pdf" },
    ]);
    const counters = await db.selectFrom("order_file_downloads").selectAll().execute();
    expect(counters).toEqual([{ order_id: "o1", upload_id: "up1", downloads_used: 2 }]);
    const columns = await sql<{ column_name: string }>`
      select column_name from information_schema.columns where table_name = 'products' and column_name like 'file_%'
    `.execute(db);
    expect(columns.rows).toEqual([]);
    // An upload a file uses can't be deleted from under it.
    await expect(db.deleteFrom("uploads").where("id", "=", "up1").execute()).rejects.toThrow();
  });
});
