import type { PGlite } from "@electric-sql/pglite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";

/**
 * Kysely dialect for embedded PGlite. PGlite is a single connection, so the driver hands it to
 * one user at a time (a transaction holds it until commit/rollback); everyone else queues.
 * Kysely 0.29 ships one, but 0.29 needs Node 22 and we run on Node 20.
 */
export class PGliteDialect implements Dialect {
  private driver: PGliteDriver | undefined;
  constructor(private readonly pglite: PGlite) {}
  /** The one connection: in use or idle, and how many queries or transactions wait for it (/metrics). */
  usage(): ConnectionUsage {
    return this.driver?.usage() ?? { total: 1, idle: 1, waiting: 0 };
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    this.driver = new PGliteDriver(this.pglite);
    return this.driver;
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/** A database's connections: all of them, the idle ones, and the callers waiting for one. */
export interface ConnectionUsage {
  total: number;
  idle: number;
  waiting: number;
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;
  private waiting = 0;
  private inUse = false;

  constructor(pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.queue;
    this.queue = previous.then(() => turn);
    this.waiting++;
    await previous;
    this.waiting--;
    this.inUse = true;
    this.connection.release = () => {
      this.inUse = false;
      release();
    };
    return this.connection;
  }

  usage(): ConnectionUsage {
    return { total: 1, idle: this.inUse ? 0 : 1, waiting: this.waiting };
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin"));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection(connection: DatabaseConnection) {
    (connection as PGliteConnection).release();
  }
  async destroy() {}
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {};
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters use exec(), which accepts several statements (as pg's simple protocol does).
    const result =
      compiledQuery.parameters.length === 0
        ? ((await this.pglite.exec(compiledQuery.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    const affected = result.affectedRows;
    return {
      rows: result.rows as R[],
      ...(affected !== undefined && affected > 0 ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported by PGlite
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("PGlite does not support streaming queries");
  }
}
