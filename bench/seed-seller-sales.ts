/**
 * The benches' seller with a history: one product (one file), `orders` orders (one a minute back from now, 5%
 * refunded) and `storeViews` store views spread over 90 days, seeded with generate_series, plus the
 * roll-ups the app keeps with every view and order, built here in bulk.
 */
import { sql } from "kysely";
import type { TestApp } from "../tests/api/support/test-app";

export const BENCH_PRODUCT_ID = "benchproduct";

export async function seedSellerSales(
  t: TestApp,
  sellerUserId: string,
  counts: { orders: number; storeViews: number },
): Promise<void> {
  // Inlined as a literal: the seeding statements run as one multi-statement script.
  const sellerId = sql.lit(sellerUserId);
  await sql`
    insert into uploads (id, seller_id, purpose, status, original_name, declared_size_bytes, declared_type, upload_key, bucket, storage_key, size_bytes, content_type, expires_at)
    values ('bench-file', ${sellerId}, 'product-file', 'attached', 'bench.pdf', 1000, 'application/pdf', 'bench/file.pdf', 'product-files', 'bench/file.pdf', 1000, 'application/pdf', now());
    insert into products (id, user_id, title, description, price_cents, inventory_type)
    values ('benchproduct', ${sellerId}, 'Bench Guide', 'For measuring.', 1999, 'unlimited');
    insert into product_files (id, product_id, upload_id, position, display_name)
    values ('bench-product-file', 'benchproduct', 'bench-file', 0, 'bench.pdf');
    update profiles set store_name = 'Bench Shop', stripe_connect_onboarding_complete = true, stripe_connect_account_id = 'acct_bench' where id = ${sellerId};
    insert into subscriptions (user_id, stripe_subscription_id, stripe_customer_id, status) values (${sellerId}, 'sub_bench', 'cus_bench', 'active');
  `.execute(t.db);
  await sql`
    insert into checkouts (id, stripe_session_id, seller_id, stripe_account_id, product_id, reservation, state, expires_at)
    select 'hold_bench_' || n, 'cs_bench_' || n, ${sellerId}, 'acct_bench', 'benchproduct', 'none', 'paid', now()
    from generate_series(1, ${counts.orders}) n;
  `.execute(t.db);
  await sql`
    insert into orders (id, stripe_session_id, stripe_account_id, payment_intent_id, seller_id, product_id, product_title, customer_email, amount_cents, settlement_cents, settlement_currency, status, download_window_ends_at, created_at)
    select 'ord_bench_' || n, 'cs_bench_' || n, 'acct_bench', 'pi_bench_' || n, ${sellerId}, 'benchproduct', 'Bench Guide',
           'buyer' || n || '@example.com', 1999, 1999, 'usd', case when n % 20 = 0 then 'refunded' else 'completed' end,
           now() + interval '30 days', now() - (n || ' minutes')::interval
    from generate_series(1, ${counts.orders}) n;
  `.execute(t.db);
  await sql`
    insert into store_views (store_owner_id, viewed_at, user_agent, visitor_hash)
    select ${sellerId}, now() - ((n % 90) || ' days')::interval, 'bench', 'v' || n from generate_series(1, ${counts.storeViews}) n;
  `.execute(t.db);
  await sql`
    insert into store_view_days (store_owner_id, day, views)
    select store_owner_id, (viewed_at at time zone 'UTC')::date, count(*) from store_views group by 1, 2;
    insert into seller_sales_totals (seller_id, orders_count, units_sold, revenue_cents)
    select seller_id, count(*), count(*) filter (where status = 'completed'),
           coalesce(sum(amount_cents) filter (where status = 'completed'), 0)
    from orders group by seller_id;
    analyze;
  `.execute(t.db);
}
