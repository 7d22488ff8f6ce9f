import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "./database";
import { openDatabase } from "./database";
import { queryTemplate } from "./query-templates";

let handle: DatabaseHandle;
let db: Database;
beforeAll(async () => {
  handle = await openDatabase({ kind: "pglite-memory" }, { warn() {} });
  db = handle.db;
  // `products` is the app's table name, so the query builder's types apply; only these columns matter.
  await sql`create table products (id text primary key, user_id text not null, title text not null, created_at timestamptz not null)`.execute(
    db,
  );
  await sql`insert into products values
    ('a1', 'ann', 'Atlas', '2026-01-01T00:00:00Z'), ('a2', 'ann', 'Brushes', '2026-02-01T00:00:00Z'),
    ('a3', 'ann', 'Canvas', '2026-03-01T00:00:00Z'), ('b1', 'bob', 'Drums', '2026-01-15T00:00:00Z')`.execute(
    db,
  );
});
afterAll(async () => {
  await handle.close();
});

describe("queryTemplate", () => {
  it("builds once per shape and answers each call's own values", async () => {
    let builds = 0;
    const titles = queryTemplate(
      (db, params: { userId: string; before?: Date }, shape: { limit: number; before: boolean }) => {
        builds++;
        let query = db
          .selectFrom("products")
          .select("title")
          .where("user_id", "=", params.userId)
          .orderBy("created_at", "desc")
          .limit(sql.lit(shape.limit));
        if (shape.before) query = query.where("created_at", "<", params.before as Date);
        return query;
      },
      (shape) => `${shape.limit}:${shape.before}`,
    );
    const read = async (...args: Parameters<typeof titles.execute>) =>
      (await titles.execute(...args)).map((row) => row.title);

    expect(await read(db, { userId: "ann" }, { limit: 2, before: false })).toEqual(["Canvas", "Brushes"]);
    expect(await read(db, { userId: "bob" }, { limit: 2, before: false })).toEqual(["Drums"]);
    expect(builds).toBe(1);
    expect(await read(db, { userId: "ann" }, { limit: 5, before: false })).toEqual([
      "Canvas",
      "Brushes",
      "Atlas",
    ]);
    expect(
      await read(db, { userId: "ann", before: new Date("2026-02-15T00:00:00Z") }, { limit: 5, before: true }),
    ).toEqual(["Brushes", "Atlas"]);
    expect(
      await read(db, { userId: "ann", before: new Date("2026-01-15T00:00:00Z") }, { limit: 5, before: true }),
    ).toEqual(["Atlas"]);
    expect(builds).toBe(3);
  });

  it("keeps the query's own constants beside the values it fills in", async () => {
    const count = queryTemplate((db, params: { userId: string }) =>
      db
        .selectFrom("products")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("user_id", "=", params.userId)
        .where("title", "<>", "Brushes"),
    );
    expect((await count.execute(db, { userId: "ann" }))[0]?.n).toBe(2);
    expect((await count.execute(db, { userId: "bob" }))[0]?.n).toBe(1);
  });

  it("refuses a value written into the SQL text, or changed while the query was built", async () => {
    const literal = queryTemplate((db, params: { title: string }) =>
      db.selectFrom("products").select("id").where("title", "=", sql.lit(params.title)),
    );
    await expect(literal.execute(db, { title: "Atlas" })).rejects.toThrow(/written into the SQL text/);

    const changed = queryTemplate((db, params: { prefix: string }) =>
      db.selectFrom("products").select("id").where("title", "like", `${params.prefix}%`),
    );
    await expect(changed.execute(db, { prefix: "A" })).rejects.toThrow(/changed while building/);
  });

  it("refuses to run without a value the query uses", async () => {
    const byUser = queryTemplate((db, params: { userId?: string }) =>
      db
        .selectFrom("products")
        .select("id")
        .where("user_id", "=", params.userId as string),
    );
    await expect(byUser.execute(db, {})).rejects.toThrow(/no value for "userId"/);
  });
});
