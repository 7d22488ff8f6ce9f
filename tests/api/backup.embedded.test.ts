import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/server/db/database";
import { backupToken } from "../../src/server/features/operations/operator-access";
import { restoreBackup } from "../../src/server/features/operations/restore";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { openEmbeddedTestDatabase } from "./support/test-database";

// The test app's auth secret (support/test-app.ts): the backup's token derives from it.
const AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const STOCK = 1_000_000;
const LONG_KEY = `covers/${"a".repeat(120)}/${"b".repeat(200)}.png`;

let t: TestApp;
let work: string;
let sellerId: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "flatfee-backup-test-"));
  t = await createTestApp({
    jobsInBackground: false,
    dataDir: path.join(work, "live"),
    // Backups are the embedded database's (PostgreSQL has pg_dump): PGlite even in the PostgreSQL pass.
    database: await openEmbeddedTestDatabase(),
  });
  await writeFile(path.join(work, "live", "local-secrets.json"), '{"authSecret":"kept"}');
  sellerId = (await signUp(t)).userId;
  await t.storage.write("product-covers", LONG_KEY, Readable.from([Buffer.from("cover")]));
  await t.db
    .insertInto("products")
    .values({
      id: "prod_backup",
      user_id: sellerId,
      title: "Guide",
      price_cents: 1500,
      inventory_type: "limited",
      quantity_available: STOCK,
    })
    .execute();
});
afterAll(async () => {
  await t.close();
  await rm(work, { recursive: true, force: true });
});

const takeBackup = (options: { ip?: string; token?: string } = {}) =>
  t.app.server.inject({
    method: "GET",
    url: "/api/operations/backup",
    remoteAddress: options.ip ?? "127.0.0.1",
    headers: { authorization: `Bearer ${options.token ?? backupToken(AUTH_SECRET)}` },
  });

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

interface Written {
  orders: string[];
  files: Array<{ key: string; sha: string }>;
}

/**
 * One writer: a file through the storage adapter, then an order in a transaction that also takes one
 * unit of stock (so the restored database is consistent only if each transaction is whole or absent).
 * Each write is recorded once acknowledged.
 */
async function writeUntil(stopped: () => boolean, writer: number, written: Written): Promise<void> {
  for (let i = 0; !stopped(); i++) {
    const id = `${writer}_${i}_${randomBytes(3).toString("hex")}`;
    const bytes = randomBytes(512 + ((i * 997) % 8192));
    const key = `${sellerId}/load/${id}.bin`;
    await t.storage.write("product-files", key, Readable.from([bytes]));
    written.files.push({ key, sha: sha256(bytes) });
    await t.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("checkouts")
        .values({
          id: `hold_${id}`,
          stripe_session_id: `cs_${id}`,
          seller_id: sellerId,
          stripe_account_id: "acct_backup",
          product_id: "prod_backup",
          reservation: "confirmed",
          state: "paid",
          expires_at: new Date(),
        })
        .execute();
      await trx
        .insertInto("orders")
        .values({
          id: `ord_${id}`,
          stripe_session_id: `cs_${id}`,
          stripe_account_id: "acct_backup",
          seller_id: sellerId,
          product_id: "prod_backup",
          product_title: "Guide",
          customer_email: "buyer@example.com",
          amount_cents: 1500,
          settlement_cents: 1500,
          settlement_currency: "usd",
          status: "completed",
          download_window_ends_at: new Date(),
        })
        .execute();
      await trx
        .updateTable("products")
        .set({ quantity_available: sql`quantity_available - 1` })
        .where("id", "=", "prod_backup")
        .execute();
    });
    written.orders.push(`ord_${id}`);
  }
}

describe("backup under write load, then restore", () => {
  it("keeps every order and file acknowledged before the backup started, in a consistent database", async () => {
    const written: Written = { orders: [], files: [] };
    let stop = false;
    const writers = [1, 2, 3].map((n) => writeUntil(() => stop, n, written));
    try {
      // Some data first (however slow the machine), then the backup while the writers go on.
      while (written.orders.length < 30) await new Promise((resolve) => setTimeout(resolve, 50));
      const before = { orders: [...written.orders], files: [...written.files] };

      const response = await takeBackup();
      const countAfterBackup = written.orders.length;
      stop = true;
      await Promise.all(writers);
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      expect(response.headers["content-type"]).toBe("application/gzip");
      // The writers went on while the backup was taken.
      expect(countAfterBackup).toBeGreaterThan(before.orders.length);

      const archive = path.join(work, "backup.tar.gz");
      await writeFile(archive, response.rawPayload);
      const target = path.join(work, "restored");
      const restored = await restoreBackup(archive, target);
      expect(restored.manifest).toMatchObject({ format: "flatfee-backup", formatVersion: 1 });
      expect(restored.manifest.files.count).toBeGreaterThanOrEqual(before.files.length);
      expect(restored.counts.orders).toBeGreaterThanOrEqual(before.orders.length);
      expect(restored.manifest.dataFiles).toEqual(["local-secrets.json"]);
      expect(await readFile(path.join(target, "local-secrets.json"), "utf8")).toBe('{"authSecret":"kept"}');
      expect(existsSync(path.join(target, ".restore-pgdata.tar"))).toBe(false);
      // A key past the tar header's 100 characters, in the other bucket.
      expect(await readFile(path.join(target, "storage", "product-covers", LONG_KEY), "utf8")).toBe("cover");

      // Every acknowledged file, byte for byte.
      for (const file of before.files) {
        const bytes = await readFile(path.join(target, "storage", "product-files", file.key));
        expect(sha256(bytes), file.key).toBe(file.sha);
      }

      // The restored folder opens as the server opens it, with every acknowledged order.
      const database = await openDatabase({ kind: "pglite", directory: path.join(target, "db") }, console);
      try {
        const orders = await database.db
          .selectFrom("orders")
          .select("id")
          .where("seller_id", "=", sellerId)
          .execute();
        const ids = new Set(orders.map((order) => order.id));
        expect(before.orders.filter((id) => !ids.has(id))).toEqual([]);
        // Consistent: every transaction whole or absent (one unit of stock per order, one checkout each).
        const product = await database.db
          .selectFrom("products")
          .select("quantity_available")
          .where("id", "=", "prod_backup")
          .executeTakeFirstOrThrow();
        expect(STOCK - (product.quantity_available ?? 0)).toBe(orders.length);
        const checkouts = await database.db
          .selectFrom("checkouts")
          .select(sql<number>`count(*)::int`.as("n"))
          .where("seller_id", "=", sellerId)
          .executeTakeFirstOrThrow();
        expect(checkouts.n).toBe(orders.length);
        // And every order's file is there (a file is written before its order).
        for (const id of ids) {
          const key = `${sellerId}/load/${id.slice("ord_".length)}.bin`;
          expect(existsSync(path.join(target, "storage", "product-files", key)), key).toBe(true);
        }
      } finally {
        await database.close();
      }
    } finally {
      stop = true;
      await Promise.allSettled(writers);
    }
  }, 120_000);

  it("restores only into an empty folder, and refuses a cut archive, leaving the folder empty", async () => {
    const archive = path.join(work, "quiet.tar.gz");
    const response = await takeBackup();
    expect(response.statusCode).toBe(200);
    await writeFile(archive, response.rawPayload);
    const occupied = path.join(work, "occupied");
    await mkdir(occupied, { recursive: true });
    await writeFile(path.join(occupied, "something"), "x");
    await expect(restoreBackup(archive, occupied)).rejects.toThrow(/is not empty/);

    const cut = path.join(work, "cut.tar.gz");
    await writeFile(cut, await readFile(archive));
    await truncate(cut, Math.floor((await readFile(archive)).length / 2));
    const fresh = path.join(work, "fresh");
    await expect(restoreBackup(cut, fresh)).rejects.toThrow();
    expect(existsSync(path.join(fresh, "db"))).toBe(false);
    expect(existsSync(path.join(fresh, "storage"))).toBe(false);
  }, 60_000);
});

describe("the backup route", () => {
  it("answers 404 to another machine, to this machine without the token, and through a proxy", async () => {
    expect((await takeBackup({ ip: "203.0.113.9" })).statusCode).toBe(404);
    expect((await takeBackup({ token: "wrong" })).statusCode).toBe(404);
    const proxied = await t.app.server.inject({
      method: "GET",
      url: "/api/operations/backup",
      remoteAddress: "127.0.0.1",
      headers: { authorization: `Bearer ${backupToken(AUTH_SECRET)}`, "x-forwarded-for": "198.51.100.1" },
    });
    expect(proxied.statusCode).toBe(404);
  });
});
