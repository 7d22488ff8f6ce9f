import type { ArchiveCustomer } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { isoOrNull, keysetPages, type PageOptions, recordsOnly, storeCurrency, textKey } from "./keyset";

/**
 * customers.ndjson: every buyer of the store with their purchase roll-up, and every email that asked
 * not to hear from the store, bought or not (a checkout recovery email's reader, say): consent must move
 * with the store. Keyed by the (lower-case) email.
 */
export function readCustomers(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: textKey,
      fetch: (after, limit) => {
        const emails = (table: "customers" | "email_unsubscribes") =>
          db
            .selectFrom(table)
            .select("email")
            .where("seller_id", "=", sellerId)
            .$if(after !== undefined, (query) => query.where("email", ">", after![0]));
        return db
          .selectFrom(emails("customers").union(emails("email_unsubscribes")).as("known"))
          .select("email")
          .orderBy("email")
          .limit(limit)
          .execute();
      },
      keyOf: (row) => [row.email] as [string],
      toPage: recordsOnly((rows) =>
        customerRecords(
          db,
          sellerId,
          rows.map((row) => row.email),
        ),
      ),
    },
    options,
  );
}

async function customerRecords(db: Database, sellerId: string, emails: string[]): Promise<ArchiveCustomer[]> {
  const [currency, customers, unsubscribes] = await Promise.all([
    storeCurrency(db, sellerId),
    db
      .selectFrom("customers")
      .selectAll()
      .where("seller_id", "=", sellerId)
      .where("email", "in", emails)
      .execute(),
    db
      .selectFrom("email_unsubscribes")
      .select(["email", "created_at"])
      .where("seller_id", "=", sellerId)
      .where("email", "in", emails)
      .execute(),
  ]);
  const customerOf = new Map(customers.map((row) => [row.email, row]));
  const unsubscribedAt = new Map(unsubscribes.map((row) => [row.email, row.created_at]));
  return emails.map((email) => {
    const customer = customerOf.get(email);
    const unsubscribed = unsubscribedAt.get(email) ?? null;
    return {
      email,
      firstPurchaseAt: isoOrNull(customer?.first_purchase_at ?? null),
      lastPurchaseAt: isoOrNull(customer?.last_purchase_at ?? null),
      ordersCount: customer?.orders_count ?? 0,
      completedCount: customer?.completed_count ?? 0,
      totalCents: Number(customer?.total_cents ?? 0),
      currency,
      productTitles: customer?.product_titles ?? [],
      unsubscribed: unsubscribed !== null,
      unsubscribedAt: isoOrNull(unsubscribed),
    };
  });
}
