import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readinessSchema } from "../../src/contracts/readiness";
import { createTestApp, signUp, type TestApp } from "./support/test-app";
import { openEmbeddedTestDatabase } from "./support/test-database";

const METRICS_TOKEN = "operator-token-0123456789abcdef";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    metricsToken: METRICS_TOKEN,
    jobsInBackground: false,
    // The connection metrics checked here are the embedded database's one connection.
    database: await openEmbeddedTestDatabase(),
  });
  t.app.server.get("/api/test-only/boom/:id", async () => {
    throw new Error("boom");
  });
  await t.app.jobs.start({ notifications: t.database.notifications, housekeeping: false });
});
afterAll(async () => {
  await t.close();
});

const metrics = (options: { ip: string; headers?: Record<string, string> }) =>
  t.request({ method: "GET", url: "/metrics", ...options });

describe("/metrics access", () => {
  it("answers a request from this machine (IPv4 and IPv6 loopback)", async () => {
    expect((await metrics({ ip: "127.0.0.1" })).statusCode).toBe(200);
    expect((await metrics({ ip: "::1" })).statusCode).toBe(200);
  });

  it("answers 404, as for no route, to another machine without the token", async () => {
    const response = await metrics({ ip: "203.0.113.7" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "not_found" });
    expect(response.body).not.toContain("flatfee_");
  });

  it("answers 404 to another machine with a wrong token, or a token in another scheme", async () => {
    for (const authorization of [
      "Bearer wrong-token",
      `Bearer ${METRICS_TOKEN}x`,
      `Basic ${METRICS_TOKEN}`,
      METRICS_TOKEN,
    ]) {
      const response = await metrics({ ip: "203.0.113.7", headers: { authorization } });
      expect(response.statusCode, authorization).toBe(404);
    }
  });

  it("answers a request through a proxy on this machine only with the token", async () => {
    const proxied = { "x-forwarded-for": "198.51.100.4" };
    expect((await metrics({ ip: "127.0.0.1", headers: proxied })).statusCode).toBe(404);
    const withToken = await metrics({
      ip: "127.0.0.1",
      headers: { ...proxied, authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(withToken.statusCode).toBe(200);
  });

  it("answers another machine with the right token", async () => {
    const response = await metrics({
      ip: "203.0.113.7",
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe("/metrics content", () => {
  it("is Prometheus text with the app's metrics and Node's", async () => {
    await t.request({ method: "GET", url: "/api/health" });
    await t.request({ method: "GET", url: "/api/test-only/boom/12345" });
    const response = await metrics({ ip: "127.0.0.1" });
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = response.body;
    for (const name of [
      "flatfee_http_request_duration_seconds",
      "flatfee_http_server_errors_total",
      "flatfee_jobs_ready",
      "flatfee_jobs_oldest_ready_age_seconds",
      "flatfee_jobs_failed",
      "flatfee_outbox_unsent_emails",
      "flatfee_outbox_oldest_unsent_age_seconds",
      "flatfee_seller_webhook_deliveries_failed",
      "flatfee_seller_webhook_deliveries_retrying",
      "flatfee_db_pool_connections",
      "flatfee_db_pool_waiting",
      "flatfee_event_bus_reconnects_total",
      "process_cpu_user_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(body, name).toContain(`# TYPE ${name} `);
    }
    // By route pattern and status class, never by URL.
    expect(body).toMatch(
      /flatfee_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_class="2xx"\} [1-9]/,
    );
    expect(body).toMatch(
      /flatfee_http_server_errors_total\{method="GET",route="\/api\/test-only\/boom\/:id"\} 1\b/,
    );
    expect(body).not.toContain("12345");
    expect(body).toMatch(/flatfee_db_pool_connections\{state="total"\} 1\b/);
  });

  it("reads the queue's backlog and the outbox's lag at scrape time", async () => {
    await t.app.jobs.stop();
    try {
      await t.outbox.enqueue({ to: "buyer@example.com", subject: "Hello", html: "<p>Hi</p>", text: "Hi" });
      t.clock.advance(90_000);
      const body = (await metrics({ ip: "127.0.0.1" })).body;
      expect(body).toMatch(/flatfee_jobs_ready\{kind="mail\.send"\} 1\b/);
      const age = Number(
        /flatfee_jobs_oldest_ready_age_seconds\{kind="mail\.send"\} ([\d.]+)/.exec(body)?.[1],
      );
      expect(age).toBeGreaterThanOrEqual(89);
      expect(body).toMatch(/flatfee_outbox_unsent_emails 1\b/);
      const outboxAge = Number(/flatfee_outbox_oldest_unsent_age_seconds ([\d.]+)/.exec(body)?.[1]);
      expect(outboxAge).toBeGreaterThanOrEqual(89);
    } finally {
      t.clock.reset();
      await t.app.jobs.start({ notifications: t.database.notifications, housekeeping: false });
    }
  });

  it("counts sellers' webhook deliveries that gave up, and those still retried", async () => {
    expect((await metrics({ ip: "127.0.0.1" })).body).toMatch(/flatfee_seller_webhook_deliveries_failed 0\b/);
    const seller = await signUp(t);
    await t.db
      .insertInto("webhook_endpoints")
      .values({
        id: "we_ops",
        seller_id: seller.userId,
        url: "https://example.com/hook",
        events: ["order.created"],
        secret: "whsec_x",
      })
      .execute();
    const delivery = (id: string) => ({
      id,
      endpoint_id: "we_ops",
      seller_id: seller.userId,
      event_type: "order.created",
      payload: "{}",
      round_started_at: t.clock.now(),
      next_attempt_at: t.clock.now(),
    });
    await t.db
      .insertInto("webhook_deliveries")
      .values([delivery("msg_1"), delivery("msg_2"), delivery("msg_3")])
      .execute();
    await t.db
      .updateTable("webhook_deliveries")
      .set({ status: "failed", attempts: 5 })
      .where("id", "in", ["msg_1", "msg_2"])
      .execute();
    await t.db.updateTable("webhook_deliveries").set({ attempts: 2 }).where("id", "=", "msg_3").execute();
    const body = (await metrics({ ip: "127.0.0.1" })).body;
    expect(body).toMatch(/flatfee_seller_webhook_deliveries_failed 2\b/);
    expect(body).toMatch(/flatfee_seller_webhook_deliveries_retrying 1\b/);
  });
});

describe("/api/ready", () => {
  it("answers 200 with every check ok, and /api/health still answers as before", async () => {
    const response = await t.request({ method: "GET", url: "/api/ready" });
    expect(response.statusCode).toBe(200);
    expect(readinessSchema.parse(response.json())).toEqual({
      status: "ready",
      checks: { database: "ok", storage: "ok", jobs: "ok" },
      failing: [],
    });
    const health = await t.request({ method: "GET", url: "/api/health" });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: "ok", services: { database: "ok", storage: "ok" } });
  });

  it("answers 503 naming the job queue when it is not running", async () => {
    await t.app.jobs.stop();
    try {
      const response = await t.request({ method: "GET", url: "/api/ready" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: "not_ready", failing: ["jobs"] });
    } finally {
      await t.app.jobs.start({ notifications: t.database.notifications, housekeeping: false });
    }
  });

  // Last: the storage does not come back.
  it("answers 503 naming the storage when it is unreachable", async () => {
    await rm(t.storageRoot, { recursive: true, force: true });
    const response = await t.request({ method: "GET", url: "/api/ready" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: "not_ready",
      checks: { database: "ok", storage: "down", jobs: "ok" },
      failing: ["storage"],
    });
  });
});
