import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedTestDatabase } from "../../../../tests/api/support/test-database";
import type { DatabaseHandle } from "../../db/database";
import { createAppMetrics, statusClass } from "./metrics";

let database: DatabaseHandle;
beforeAll(async () => {
  // PGlite even in the PostgreSQL pass: these are the embedded database's one-connection readings.
  database = await openEmbeddedTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const silent = { warn() {} };

describe("app metrics", () => {
  it("keeps each app's metrics on a registry of its own", async () => {
    const one = createAppMetrics({ db: database.db, now: () => new Date(), log: silent });
    const two = createAppMetrics({ db: database.db, now: () => new Date(), log: silent });
    expect(one.registry).not.toBe(two.registry);
    expect(await one.registry.metrics()).toContain("flatfee_jobs_ready");
  });

  it("counts the LISTEN reconnects by channel, and reads the database's connections", async () => {
    const metrics = createAppMetrics({
      db: database.db,
      now: () => new Date(),
      log: silent,
      notifications: { reconnects: () => new Map([["flatfee_events", 3]]) },
      connectionUsage: () => ({ total: 10, idle: 7, waiting: 2 }),
    });
    const body = await metrics.registry.metrics();
    expect(body).toContain('flatfee_event_bus_reconnects_total{channel="flatfee_events"} 3');
    expect(body).toContain('flatfee_db_pool_connections{state="total"} 10');
    expect(body).toContain('flatfee_db_pool_connections{state="in_use"} 3');
    expect(body).toContain("flatfee_db_pool_waiting 2");
  });

  it("does not count the scrape's own queries as waiting for PGlite's one connection", async () => {
    const metrics = createAppMetrics({
      db: database.db,
      now: () => new Date(),
      log: silent,
      connectionUsage: database.connectionUsage,
    });
    const body = await metrics.registry.metrics();
    expect(body).toContain("flatfee_db_pool_waiting 0");
    expect(body).toContain('flatfee_db_pool_connections{state="idle"} 1');
  });

  it("still answers when the database does not, counting each failed reading once", async () => {
    const closed = await openEmbeddedTestDatabase();
    await closed.close();
    const warnings: string[] = [];
    const metrics = createAppMetrics({
      db: closed.db,
      now: () => new Date(),
      log: { warn: (_object, message) => warnings.push(message) },
    });
    const body = await metrics.registry.metrics();
    expect(body).toContain('flatfee_metrics_read_errors_total{reading="jobs"} 1');
    expect(body).toContain('flatfee_metrics_read_errors_total{reading="outbox"} 1');
    expect(body).toContain('flatfee_metrics_read_errors_total{reading="webhook-deliveries"} 1');
    // Unknown, never a reassuring 0 (prom-client writes NaN as "Nan", which Prometheus reads).
    expect(body).toMatch(/^flatfee_outbox_unsent_emails nan$/im);
    expect(body).toMatch(/^flatfee_seller_webhook_deliveries_failed nan$/im);
    expect(body).not.toMatch(/^flatfee_jobs_ready\{/m);
    expect(warnings.length).toBe(4);
  });

  it("names status classes", () => {
    expect([200, 302, 404, 503].map(statusClass)).toEqual(["2xx", "3xx", "4xx", "5xx"]);
  });
});
