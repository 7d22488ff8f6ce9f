import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresEventBus } from "../../src/server/adapters/events/event-bus";
import { postgresNotifications } from "../../src/server/db/notifications";
import { control } from "./support/emulator-control";
import { openEventStream } from "./support/event-stream";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

// Runs only on PostgreSQL (npm run test:pg): two app instances share one database, as in production.
let receiver: TestApp;
let other: TestApp;
beforeAll(async () => {
  receiver = await createTestApp({ listen: true });
  other = await createTestApp({ listen: true, sharing: receiver });
});
afterAll(async () => {
  await other.close();
  await receiver.close();
});

describe("two app instances on one PostgreSQL", () => {
  it("a webhook received by one instance reaches a browser connected to the other", async () => {
    const seller = await signUp(receiver);
    const stream = await openEventStream(other.url!, seller.cookie);
    const checkout = await other.request({
      method: "POST",
      url: "/api/billing/checkout",
      cookie: seller.cookie,
    });
    // The emulator delivers webhooks to `receiver` only.
    await control(receiver.emulator).payCheckout(new URL(checkout.json().url).pathname.split("/").pop()!);
    await eventually(async () => expect(stream.received).toContainEqual({ type: "subscription.changed" }));
    const status = await other.request({ method: "GET", url: "/api/seller/status", cookie: seller.cookie });
    expect(status.json().standing).toBe("active");
    stream.close();
  });
});

describe("a lost LISTEN connection", () => {
  it("is replaced, and events flow again", async () => {
    const received: string[] = [];
    receiver.events.subscribe("user-x", (event) => received.push(event.type));
    // Kill every connection that is listening, as a Postgres restart or failover would.
    await receiver.database.pool!.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'listen %'",
    );
    await eventually(
      async () => {
        await receiver.events.publish("user-x", { type: "sales.changed" });
        expect(received).toContain("sales.changed");
      },
      15_000,
      500,
    );
  });
});

describe("a closed bus", () => {
  it("ignores its listening connection reporting errors after close (pg refuses a second release)", async () => {
    const pool = receiver.database.pool!;
    const acquired: pg.PoolClient[] = [];
    const onAcquire = (client: pg.PoolClient) => acquired.push(client);
    pool.on("acquire", onAcquire);
    const bus = await postgresEventBus(pool, postgresNotifications(pool, { warn() {} }), { warn() {} });
    pool.off("acquire", onAcquire);
    // The connection the bus listens on (the app's own jobs may take others from the pool meanwhile).
    const listening = acquired.find((client) => client.listenerCount("notification") > 0);
    expect(listening).toBeDefined();
    await bus.close();
    // What a dying connection does after close(): the server's FATAL, then the socket's end.
    expect(() => {
      listening!.emit("error", new Error("terminating connection due to administrator command"));
      listening!.emit("error", new Error("Connection terminated unexpectedly"));
    }).not.toThrow();
  });
});
