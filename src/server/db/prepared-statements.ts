import { createHash } from "node:crypto";
import pg from "pg";
import { PLAN_PER_VALUES } from "./plan-hints";

/**
 * PostgreSQL plans every statement it is sent, and for the app's small reads the plan costs more than
 * the run (the dashboard's stats: about 0.25 ms planning against 0.1 ms executing). A named statement is
 * parsed and planned once per connection, then only bound and executed, which doubled the dashboard
 * stats' throughput (bench/dashboard-and-product.ts).
 *
 * Only statements with values run outside a transaction are named, at most MAX_PER_CONNECTION per connection (a
 * statement built with a varying number of values is a new text each time; past the limit they simply
 * run unnamed). Outside a transaction a named statement whose plan went stale can always be run again:
 * after a migration adds a column, PostgreSQL refuses a prepared `select t.*` ("cached plan must not
 * change result type"), so that text is run again unnamed and never named again on that connection.
 */
const MAX_PER_CONNECTION = 200;
const STATEMENT = /^\s*(?:select|with|insert|update|delete)\b/i;
/** feature_not_supported, which PostgreSQL answers for a prepared statement whose result type changed. */
const STALE_PLAN = "0A000";

/** Statement names by text, shared by all connections: the hash is computed once per text. */
const namesByText = new Map<string, string>();
const MAX_NAMES = 2_000;

function statementName(text: string): string {
  let name = namesByText.get(text);
  if (name === undefined) {
    name = `flatfee_${createHash("sha1").update(text).digest("base64url")}`;
    if (namesByText.size < MAX_NAMES) namesByText.set(text, name);
  }
  return name;
}

const isStalePlan = (error: unknown) =>
  error instanceof Error && (error as Error & { code?: string }).code === STALE_PLAN;

/** The pool's client class (`new pg.Pool({ Client: PreparingClient })`). */
export class PreparingClient extends pg.Client {
  readonly #named = new Set<string>();
  readonly #neverNamed = new Set<string>();

  // Kysely calls query(text, values); every other form (cursors, callbacks, LISTEN) is passed through.
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this forwards them all.
  override query(...args: any[]): any {
    const [text, values, callback] = args;
    if (typeof text !== "string" || !Array.isArray(values) || callback !== undefined) {
      return super.query(...(args as Parameters<pg.Client["query"]>));
    }
    // Without values pg sends a simple query, which may hold several commands and cannot be named.
    const name = values.length > 0 ? this.#nameFor(text) : undefined;
    if (name === undefined) return super.query(text, values);
    return super.query({ name, text, values }).catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      this.#neverNamed.add(text);
      return super.query(text, values);
    });
  }

  #nameFor(text: string): string | undefined {
    if (
      this.getTransactionStatus() !== "I" ||
      !STATEMENT.test(text) ||
      this.#neverNamed.has(text) ||
      text.includes(PLAN_PER_VALUES)
    ) {
      return undefined;
    }
    const name = statementName(text);
    if (this.#named.has(name)) return name;
    if (this.#named.size >= MAX_PER_CONNECTION) return undefined;
    this.#named.add(name);
    return name;
  }
}
