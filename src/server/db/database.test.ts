import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTemplate } from "../../../tests/support/database-template";
import { EMBEDDED_SHARED_BUFFERS, openDatabase } from "./database";
import { DatabaseUnavailableError, isDatabaseUnavailable } from "./unavailable";

const silentLog = { warn() {} };

// A server that accepts connections and never answers: what a database host that stopped
// responding (a failover in progress, a network partition) looks like to a client.
let silentServer: Server;
const sockets: Socket[] = [];
let silentUrl: string;
beforeAll(async () => {
  silentServer = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silentServer.listen(0, "127.0.0.1", resolve));
  const address = silentServer.address();
  silentUrl = `postgres://flatfee@127.0.0.1:${typeof address === "object" && address ? address.port : 0}/flatfee`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silentServer.close(resolve));
});

describe("a PostgreSQL server that does not answer", () => {
  it("fails a query with DatabaseUnavailableError instead of waiting forever for a connection", async () => {
    const database = await openDatabase({ kind: "postgres", url: silentUrl }, silentLog);
    const failure = await sql`select 1`.execute(database.db).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    await database.close();
  });
});

describe("the embedded database", () => {
  it("opens with a small buffer pool, which PGlite allocates and clears at every start", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "flatfee-database-"));
    const database = await openDatabase({ kind: "pglite", directory }, silentLog, testDatabaseTemplate());
    const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(database.db);
    await database.close();
    await rm(directory, { recursive: true, force: true });
    expect(rows[0]?.shared_buffers).toBe(EMBEDDED_SHARED_BUFFERS);
  });
});

describe("isDatabaseUnavailable", () => {
  const withCode = (code: string, message = "boom") => Object.assign(new Error(message), { code });

  it("recognises an unreachable database, also when wrapped", () => {
    for (const code of ["57P01", "57P02", "57P03", "53300", "08006", "08001", "ECONNREFUSED", "ECONNRESET"]) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error("Client has encountered a connection error and is not queryable")),
    ).toBe(true);
    expect(isDatabaseUnavailable(new DatabaseUnavailableError(new Error("timeout")))).toBe(true);
    // Better Auth wraps database errors in its own.
    expect(isDatabaseUnavailable(new Error("Failed to get session", { cause: withCode("57P01") }))).toBe(
      true,
    );
  });

  it("leaves every other error alone", () => {
    expect(isDatabaseUnavailable(withCode("23505", "duplicate key value"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("42P01", 'relation "x" does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Internal error"))).toBe(false);
    expect(isDatabaseUnavailable("57P01")).toBe(false);
  });
});
