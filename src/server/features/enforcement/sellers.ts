import { sql } from "kysely";
import {
  type CurrencyAmount,
  ENFORCEMENT_MESSAGES,
  type OperatorSeller,
  type SellerSearchPage,
} from "../../../contracts/enforcement";
import type { Database } from "../../db/database";
import { notFound } from "../../http/errors";
import { sellerStatus } from "../billing";
import { storageUsedQuery } from "../uploads";
import { readStanding } from "./standing";

const PAGE_SIZE = 25;

/** `created_at|id` of the last row shown: the next page starts after it. */
const cursorOf = (row: { created_at: Date; id: string }) => `${row.created_at.toISOString()}|${row.id}`;

/** LIKE's wildcards in what was typed are matched as themselves. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The console's seller search, newest first, 25 a page (keyset: created_at, id). `q` is an id (exact), or
 * the start of an email or a store name, in any case; both prefixes use an index
 * (`lower(...) text_pattern_ops`), so it costs the same on 10,000 sellers as on 100.
 */
export async function searchSellers(
  db: Database,
  query: { q?: string | undefined; after?: string | undefined },
): Promise<SellerSearchPage> {
  let select = db
    .selectFrom("profiles")
    .innerJoin("user", "user.id", "profiles.id")
    .leftJoin("subscriptions", "subscriptions.user_id", "profiles.id")
    .leftJoin("enforcement_actions", (join) =>
      join
        .onRef("enforcement_actions.seller_id", "=", "profiles.id")
        .on("enforcement_actions.lifted_at", "is", null)
        .on("enforcement_actions.kind", "in", ["restrict", "suspend"]),
    )
    .select([
      "profiles.id",
      "user.email",
      "profiles.store_name",
      "profiles.created_at",
      "subscriptions.status",
      "enforcement_actions.kind",
    ])
    .orderBy("profiles.created_at", "desc")
    .orderBy("profiles.id", "desc")
    .limit(PAGE_SIZE + 1);
  const q = query.q?.trim();
  if (q) {
    const prefix = `${escapeLike(q.toLowerCase())}%`;
    select = select.where((eb) =>
      eb.or([
        eb("profiles.id", "=", q),
        eb(sql`lower("user".email)`, "like", prefix),
        eb(sql`lower(profiles.store_name)`, "like", prefix),
      ]),
    );
  }
  if (query.after) {
    const [at, id] = query.after.split("|");
    const after = at ? new Date(at) : undefined;
    if (after && !Number.isNaN(after.getTime()) && id) {
      select = select.where((eb) =>
        eb.or([
          eb("profiles.created_at", "<", after),
          eb.and([eb("profiles.created_at", "=", after), eb("profiles.id", "<", id)]),
        ]),
      );
    }
  }
  const rows = await select.execute();
  const shown = rows.slice(0, PAGE_SIZE);
  const last = shown.at(-1);
  return {
    sellers: shown.map((row) => ({
      id: row.id,
      email: row.email,
      storeName: row.store_name,
      createdAt: row.created_at.toISOString(),
      planStatus: row.status ?? null,
      state: row.kind === "suspend" ? "suspended" : row.kind === "restrict" ? "restricted" : "good",
    })),
    nextAfter: rows.length > PAGE_SIZE && last ? cursorOf(last) : null,
  };
}

const PRODUCTS_SHOWN = 200;

/** Everything the console's seller page shows: plan, Connect, products, sales, storage, standing. */
export async function operatorSeller(db: Database, sellerId: string, now: Date): Promise<OperatorSeller> {
  const profile = await db
    .selectFrom("profiles")
    .innerJoin("user", "user.id", "profiles.id")
    .select([
      "profiles.id",
      "user.email",
      "user.name",
      "profiles.store_name",
      "profiles.store_currency",
      "profiles.created_at",
      "profiles.stripe_connect_account_id",
      "profiles.stripe_connect_onboarding_complete",
    ])
    .where("profiles.id", "=", sellerId)
    .executeTakeFirst();
  if (!profile) throw notFound(ENFORCEMENT_MESSAGES.sellerNotFound);
  const [status, products, sales, storage, standing, reportsCount] = await Promise.all([
    sellerStatus(db, sellerId, now),
    db
      .selectFrom("products")
      .leftJoin("enforcement_actions", (join) =>
        join
          .onRef("enforcement_actions.product_id", "=", "products.id")
          .on("enforcement_actions.lifted_at", "is", null)
          .on("enforcement_actions.kind", "=", "take-down"),
      )
      .select([
        "products.id",
        "products.title",
        "products.is_active",
        "products.price_cents",
        "enforcement_actions.id as take_down_id",
      ])
      .where("products.user_id", "=", sellerId)
      .orderBy("products.created_at", "desc")
      .limit(PRODUCTS_SHOWN)
      .execute(),
    db
      .selectFrom("orders")
      .select([
        "settlement_currency",
        sql<string>`count(*)`.as("count"),
        sql<string>`sum(settlement_cents)::bigint`.as("total"),
      ])
      .where("seller_id", "=", sellerId)
      .where("status", "=", "completed")
      .groupBy("settlement_currency")
      .execute(),
    storageUsedQuery(db, sellerId).executeTakeFirstOrThrow(),
    readStanding(db, sellerId),
    // The reports room's table, read here as orders and products are: importing that room would close a circle.
    db
      .selectFrom("reports")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("seller_id", "=", sellerId)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count)),
  ]);
  const volume: CurrencyAmount[] = sales
    .map((row) => ({ currency: row.settlement_currency, amountCents: Number(row.total) }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
  return {
    id: profile.id,
    email: profile.email,
    name: profile.name,
    storeName: profile.store_name,
    storeCurrency: profile.store_currency,
    createdAt: profile.created_at.toISOString(),
    plan: {
      standing: status.standing,
      status: status.subscription?.status ?? null,
      currentPeriodEnd: status.subscription?.currentPeriodEnd ?? null,
      cancelAtPeriodEnd: status.subscription?.cancelAtPeriodEnd ?? false,
    },
    connect: {
      accountId: profile.stripe_connect_account_id,
      onboardingComplete: profile.stripe_connect_onboarding_complete,
    },
    products: products.map((row) => ({
      id: row.id,
      title: row.title,
      isActive: row.is_active,
      priceCents: row.price_cents,
      takenDown: row.take_down_id !== null,
    })),
    sales: { count: sales.reduce((sum, row) => sum + Number(row.count), 0), volume },
    storageBytes: Number(storage.used),
    reportsCount,
    standing,
  };
}
