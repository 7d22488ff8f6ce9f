import { sql } from "kysely";
import type { Database } from "../../db/database";
import type { CreatedOrder, OrderChangeStep, RefundedOrder } from "../order-lifecycle";

/**
 * Keeps `customers` (one row per buyer email) and `customer_products` (who still has each product) in
 * step with orders, in the order's own transaction: the customers page and the audiences of the
 * seller's emails read these, never a scan of all orders. The order row is already written; its
 * title and time are read from it in the same statement.
 */
export async function rollUpCustomerOrder(trx: Database, order: CreatedOrder): Promise<void> {
  const completed = order.delivered ? 1 : 0;
  const { rows } = await sql<{ inserted: boolean }>`
    insert into customers as c
      (seller_id, email, first_purchase_at, last_purchase_at, orders_count, completed_count, total_cents,
       product_titles)
    select seller_id, lower(customer_email), created_at, created_at, 1, ${completed},
      ${completed ? order.amountCents : 0}, array[product_title]
    from orders where id = ${order.orderId}
    on conflict (seller_id, email) do update set
      first_purchase_at = least(c.first_purchase_at, excluded.first_purchase_at),
      last_purchase_at = greatest(c.last_purchase_at, excluded.last_purchase_at),
      orders_count = c.orders_count + 1,
      completed_count = c.completed_count + excluded.completed_count,
      total_cents = c.total_cents + excluded.total_cents,
      product_titles = case when excluded.product_titles[1] = any (c.product_titles) then c.product_titles
        else c.product_titles || excluded.product_titles end
    returning (xmax = 0) as inserted
  `.execute(trx);
  // xmax is 0 on a row this statement inserted: a new customer.
  if (rows[0]?.inserted) {
    await trx
      .insertInto("customer_counts")
      .values({ seller_id: order.sellerId, customers: 1 })
      .onConflict((conflict) =>
        conflict.column("seller_id").doUpdateSet({ customers: sql`customer_counts.customers + 1` }),
      )
      .execute();
  }
  await countProductBuyer(trx, order, completed);
}

/** A completed order was refunded: it leaves the buyer's total, and the buyer may leave the product's audience. */
export async function rollUpCustomerRefund(trx: Database, order: RefundedOrder): Promise<void> {
  await trx
    .updateTable("customers")
    .set({
      completed_count: sql`greatest(completed_count - 1, 0)`,
      total_cents: sql`total_cents - ${order.amountCents}`,
    })
    .where("seller_id", "=", order.sellerId)
    .where("email", "=", order.email.toLowerCase())
    .execute();
  if (order.productId) await countProductBuyer(trx, order, -1);
}

async function countProductBuyer(
  trx: Database,
  order: { productId: string | null; sellerId: string; email: string },
  change: 1 | 0 | -1,
): Promise<void> {
  if (!order.productId) return;
  await trx
    .insertInto("customer_products")
    .values({
      product_id: order.productId,
      email: order.email.toLowerCase(),
      seller_id: order.sellerId,
      completed_count: Math.max(change, 0),
    })
    .onConflict((conflict) =>
      conflict
        .columns(["product_id", "email"])
        .doUpdateSet({ completed_count: sql`greatest(customer_products.completed_count + ${change}, 0)` }),
    )
    .execute();
}

/**
 * A store import's batch of orders (one seller) in three statements: each buyer's row once with all their
 * orders of the batch, the new buyers counted, each buyer's products. The same sums as one order at a time;
 * a new buyer's product titles come in alphabetical order instead of purchase order.
 */
export async function rollUpImportedOrders(trx: Database, orders: readonly CreatedOrder[]): Promise<void> {
  const sellerId = orders[0]!.sellerId;
  const batch = sql.join(
    orders.map(
      (order) =>
        sql`(${order.orderId}::text, ${order.delivered ? 1 : 0}::int, ${order.delivered ? order.amountCents : 0}::bigint)`,
    ),
  );
  const { rows } = await sql<{ inserted: boolean }>`
    with batch (order_id, completed, amount) as (values ${batch})
    insert into customers as c
      (seller_id, email, first_purchase_at, last_purchase_at, orders_count, completed_count, total_cents,
       product_titles)
    select o.seller_id, lower(o.customer_email), min(o.created_at), max(o.created_at), count(*),
      sum(b.completed), sum(b.amount), array_agg(distinct o.product_title)
    from orders o join batch b on b.order_id = o.id
    group by o.seller_id, lower(o.customer_email)
    on conflict (seller_id, email) do update set
      first_purchase_at = least(c.first_purchase_at, excluded.first_purchase_at),
      last_purchase_at = greatest(c.last_purchase_at, excluded.last_purchase_at),
      orders_count = c.orders_count + excluded.orders_count,
      completed_count = c.completed_count + excluded.completed_count,
      total_cents = c.total_cents + excluded.total_cents,
      product_titles = c.product_titles
        || array(select title from unnest(excluded.product_titles) title where title <> all (c.product_titles))
    returning (xmax = 0) as inserted
  `.execute(trx);
  const newCustomers = rows.filter((row) => row.inserted).length;
  if (newCustomers > 0) {
    await trx
      .insertInto("customer_counts")
      .values({ seller_id: sellerId, customers: newCustomers })
      .onConflict((conflict) =>
        conflict
          .column("seller_id")
          .doUpdateSet({ customers: sql`customer_counts.customers + ${newCustomers}` }),
      )
      .execute();
  }
  await sql`
    with batch (order_id, completed) as (values ${sql.join(
      orders.map((order) => sql`(${order.orderId}::text, ${order.delivered ? 1 : 0}::int)`),
    )})
    insert into customer_products as cp (product_id, email, seller_id, completed_count)
    select o.product_id, lower(o.customer_email), o.seller_id, sum(b.completed)
    from orders o join batch b on b.order_id = o.id
    where o.product_id is not null
    group by o.product_id, lower(o.customer_email), o.seller_id
    on conflict (product_id, email) do update set completed_count = cp.completed_count + excluded.completed_count
  `.execute(trx);
}

/** Customers roll up every sale and refund (OrderChanges). */
export const customersStep: OrderChangeStep = {
  created: rollUpCustomerOrder,
  imported: rollUpCustomerOrder,
  importedMany: rollUpImportedOrders,
  refunded: rollUpCustomerRefund,
  disputeLost: rollUpCustomerRefund,
};
