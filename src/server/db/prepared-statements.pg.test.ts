import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFreshDatabase } from "../../../tests/api/support/test-database";
import { planPerValues } from "./plan-hints";
import { PreparingClient } from "./prepared-statements";
// Reads int8 as a number, as the app's pool does (its module sets pg's parser).
import "./postgres";

// Runs only on PostgreSQL (npm run test:pg): prepared statements are PostgreSQL's, per connection.
let database: { url: string; drop(): Promise<void> };

let pool: pg.Pool;

beforeAll(async () => {
  database = await createFreshDatabase(process.env.TEST_DATABASE_URL as string);
});
afterAll(async () => {
  await database.drop();
});

beforeEach(async () => {
  // One connection, so every statement of a test runs where its preparation is visible.
  pool = new pg.Pool({ connectionString: database.url, max: 1, Client: PreparingClient });
  await pool.query("drop table if exists items; create table items (id int primary key, name text)");
  await pool.query("insert into items values (1, 'one'), (2, 'two')");
});
afterEach(async () => {
  await pool.end();
});

async function preparedStatements(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    "select statement from pg_prepared_statements where name like 'flatfee_%' order by statement",
  );
  return rows.map((row) => row.statement);
}

describe("statements on PostgreSQL", () => {
  it("are prepared once per connection and answer like unprepared ones", async () => {
    const client = await pool.connect();
    try {
      const first = await client.query("select name from items where id = $1", [1]);
      const second = await client.query("select name from items where id = $1", [2]);
      expect(first.rows).toEqual([{ name: "one" }]);
      expect(second.rows).toEqual([{ name: "two" }]);
      await client.query("update items set name = $1 where id = $2", ["uno", 1]);
      expect(await preparedStatements(client)).toEqual([
        "select name from items where id = $1",
        "update items set name = $1 where id = $2",
      ]);
    } finally {
      client.release();
    }
  });

  it("are not prepared inside a transaction", async () => {
    const client = await pool.connect();
    try {
      await client.query("begin");
      const inside = await client.query("select name from items where id = $1", [2]);
      await client.query("commit");
      expect(inside.rows).toEqual([{ name: "two" }]);
      expect(await preparedStatements(client)).toEqual([]);
    } finally {
      client.release();
    }
  });

  it("run again unprepared when a migration changed what a prepared one returns", async () => {
    const client = await pool.connect();
    try {
      const before = await client.query("select items.* from items where id = $1", [1]);
      expect(before.rows).toEqual([{ id: 1, name: "one" }]);
      await client.query("alter table items add column price int not null default 5");
      // PostgreSQL refuses the prepared statement now ("cached plan must not change result type").
      const after = await client.query("select items.* from items where id = $1", [1]);
      expect(after.rows).toEqual([{ id: 1, name: "one", price: 5 }]);
      expect(await client.query("select items.* from items where id = $1", [2])).toMatchObject({
        rows: [{ id: 2, name: "two", price: 5 }],
      });
    } finally {
      client.release();
    }
  });

  it("are prepared at most 200 per connection; the rest run unprepared", async () => {
    const client = await pool.connect();
    try {
      for (let count = 1; count <= 230; count++) {
        const values = Array.from({ length: count }, (_, index) => index + 1);
        const placeholders = values.map((_, index) => `$${index + 1}`).join(", ");
        const { rows } = await client.query(`select id from items where id in (${placeholders})`, values);
        expect(rows.length).toBe(Math.min(count, 2));
      }
      expect((await preparedStatements(client)).length).toBe(200);
    } finally {
      client.release();
    }
  });

  it("without values may hold several commands, as before", async () => {
    // Several commands answer one result each.
    const results = (await pool.query("select 1 as one; select name from items where id = 2", [])) as unknown;
    expect((results as pg.QueryResult[]).map((result) => result.rows)).toEqual([
      [{ one: 1 }],
      [{ name: "two" }],
    ]);
  });

  it("are planned once for a page whose limit is a literal, and anew every time for a parameter limit", async () => {
    await pool.query("insert into items select n, 'item ' || n from generate_series(3, 5000) n");
    await pool.query("analyze items");
    const client = await pool.connect();
    try {
      const pageOf = (limit: string) => `select id, name from items where id > $1 order by id limit ${limit}`;
      // What pageLimit() writes.
      const literal = pageOf("21");
      for (let run = 0; run < 10; run++) {
        await client.query(literal, [run]);
        await client.query(pageOf("$2"), [run, 21]);
      }
      const { rows } = await client.query<{ statement: string; generic_plans: number; custom_plans: number }>(
        "select statement, generic_plans, custom_plans from pg_prepared_statements where name like 'flatfee_%'",
      );
      expect(rows.find((row) => row.statement === literal)?.generic_plans).toBeGreaterThan(0);
      expect(rows.find((row) => row.statement === pageOf("$2"))).toMatchObject({
        generic_plans: 0,
        custom_plans: 10,
      });
    } finally {
      client.release();
    }
  });

  it("marked planPerValues are never prepared, so each run is planned with its own values", async () => {
    // The customers search: a generic plan for `email like $2` scans every customer for a rare term.
    const db = new Kysely<{ items: { id: number; name: string } }>({
      dialect: new PostgresDialect({ pool }),
    });
    const search = (pattern: string) =>
      db.selectFrom("items").select("name").where("name", "like", pattern).modifyEnd(planPerValues).execute();
    for (let run = 0; run < 7; run++) expect(await search("%ne%")).toEqual([{ name: "one" }]);
    expect(await search("t%")).toEqual([{ name: "two" }]);
    const client = await pool.connect();
    try {
      expect(await preparedStatements(client)).toEqual([]);
    } finally {
      client.release();
    }
  });

  it("fail as before when they are wrong", async () => {
    await expect(pool.query("select nothing from items where id = $1", [1])).rejects.toThrow(
      /column "nothing" does not exist/,
    );
    expect((await pool.query("select name from items where id = $1", [1])).rows).toEqual([{ name: "one" }]);
  });
});
