import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../tests/api/support/test-database";
import type { DatabaseHandle } from "./database";

// db/schema.ts is written by hand (Kysely's types for our tables); this checks it against the database the
// migrations make, on PGlite and on PostgreSQL: the same tables, the same columns, the same nullability.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** Tables Better Auth creates and owns (its own adapter reads them), and the migrator's. */
const NOT_IN_SCHEMA = new Set([
  "account",
  "verification",
  "twoFactor",
  "kysely_migration",
  "kysely_migration_lock",
]);

interface DeclaredColumn {
  name: string;
  nullable: boolean;
}

/** Splits `text` on `separator` where no bracket is open. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if ("<({[".includes(char)) depth++;
    if (">)}]".includes(char)) depth--;
    if (char === separator && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  if (current.trim()) parts.push(current);
  return parts;
}

/** The tables of `interface DB` and the columns of each table's interface, as schema.ts declares them. */
function declaredSchema(): Map<string, DeclaredColumn[]> {
  const source = readFileSync(path.join(import.meta.dirname, "schema.ts"), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "");
  const interfaces = new Map<string, string>();
  for (const match of source.matchAll(/export interface (\w+)(?: extends (\w+))? \{([\s\S]*?)\n\}/g)) {
    // An interface that extends another has its fields too.
    interfaces.set(match[1]!, `${match[2] ? `${interfaces.get(match[2]) ?? ""};` : ""}${match[3]!}`);
  }
  const fieldsOf = (body: string) =>
    splitTopLevel(body, ";")
      .map((field) => field.trim())
      .filter(Boolean)
      .map((field) => {
        const colon = field.indexOf(":");
        return { name: field.slice(0, colon).replace("?", "").trim(), type: field.slice(colon + 1).trim() };
      });
  const tables = new Map<string, DeclaredColumn[]>();
  for (const { name: table, type } of fieldsOf(interfaces.get("DB")!)) {
    const body = interfaces.get(type);
    if (!body) throw new Error(`schema.ts: ${table} is typed ${type}, which is not an interface here`);
    tables.set(
      table,
      fieldsOf(body).map(({ name, type: columnType }) => ({
        name,
        // A column that may hold null says so in its type (`| null`, NullableTimestamp, JsonColumn).
        nullable: /\bnull\b|NullableTimestamp|JsonColumn/.test(columnType),
      })),
    );
  }
  return tables;
}

async function migratedSchema(): Promise<Map<string, DeclaredColumn[]>> {
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    select table_name, column_name, is_nullable from information_schema.columns
    where table_schema = 'public' order by table_name, ordinal_position
  `.execute(database.db);
  const tables = new Map<string, DeclaredColumn[]>();
  for (const row of rows) {
    if (NOT_IN_SCHEMA.has(row.table_name)) continue;
    const columns = tables.get(row.table_name) ?? [];
    columns.push({ name: row.column_name, nullable: row.is_nullable === "YES" });
    tables.set(row.table_name, columns);
  }
  return tables;
}

const byName = (columns: DeclaredColumn[]) => [...columns].sort((a, b) => a.name.localeCompare(b.name));

describe("db/schema.ts", () => {
  it("declares every table the migrations make, with its columns and their nullability", async () => {
    const declared = declaredSchema();
    const migrated = await migratedSchema();
    expect([...declared.keys()].sort()).toEqual([...migrated.keys()].sort());
    for (const [table, columns] of migrated) {
      expect(byName(declared.get(table)!), `schema.ts, table ${table}`).toEqual(byName(columns));
    }
  });
});
