import type { FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { ConnectionUsage, Database } from "../../db/database";
import type { Notifications } from "../../db/notifications";
import { readFailedJobs, readJobQueue, readOutbox, readWebhookDeliveries } from "./metric-readings";

/** What the scrape reads besides the database's tables: the connections, and the LISTEN reconnects. */
export interface MetricsSources {
  db: Database;
  now: () => Date;
  connectionUsage?: () => ConnectionUsage;
  notifications?: Pick<Notifications, "reconnects">;
  log: { warn(object: object, message: string): void };
}

export interface AppMetrics {
  registry: Registry;
  /** Counts one answered request under its route's pattern (never its URL: one series per route). */
  observeRequest(request: FastifyRequest, reply: FastifyReply): void;
}

/** Requests that matched no route share one label, so a scan of random URLs adds no series. */
const UNMATCHED_ROUTE = "unmatched";
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One reading shared by the metrics of one scrape: the registry collects every metric at once, so the
 * first to ask starts it and the others wait for the same answer; the next scrape reads again.
 */
function sharedReading<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= read().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}

export const statusClass = (statusCode: number): string => `${Math.floor(statusCode / 100)}xx`;

/**
 * The app's metrics on a registry of its own (never prom-client's global one: each app a test builds has
 * its own), with Node's default metrics. Table readings (the queue, the outbox, webhook deliveries) are
 * taken at scrape time with small indexed queries; a reading that fails is left unknown in that scrape
 * and counted in flatfee_metrics_read_errors_total.
 */
export function createAppMetrics(sources: MetricsSources): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  // Before the table readings, whose queries would otherwise count as waiting for the connection.
  const { connectionUsage, notifications } = sources;
  if (connectionUsage) {
    new Gauge({
      name: "flatfee_db_pool_waiting",
      help: "Queries or transactions waiting for a database connection",
      registers: [registry],
      collect() {
        this.set(connectionUsage().waiting);
      },
    });
    new Gauge({
      name: "flatfee_db_pool_connections",
      help: "Database connections, by state (PGlite: its one connection, idle or in use)",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const usage = connectionUsage();
        this.set({ state: "total" }, usage.total);
        this.set({ state: "idle" }, usage.idle);
        this.set({ state: "in_use" }, usage.total - usage.idle);
      },
    });
  }
  if (notifications) {
    new Counter({
      name: "flatfee_event_bus_reconnects_total",
      help: "Lost LISTEN connections replaced (PostgreSQL), by channel: flatfee_events (the event bus), flatfee_jobs",
      labelNames: ["channel"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [channel, count] of notifications.reconnects()) this.inc({ channel }, count);
      },
    });
  }

  const duration = new Histogram({
    name: "flatfee_http_request_duration_seconds",
    help: "HTTP requests answered, by method, route pattern and status class, and how long they took",
    labelNames: ["method", "route", "status_class"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const serverErrors = new Counter({
    name: "flatfee_http_server_errors_total",
    help: "HTTP requests answered with a 5xx status, by method and route pattern",
    labelNames: ["method", "route"] as const,
    registers: [registry],
  });
  const tableReadings: Array<() => Promise<unknown>> = [];
  const readErrors = new Counter({
    name: "flatfee_metrics_read_errors_total",
    help: "Scrape-time readings that failed (the database did not answer), by reading",
    labelNames: ["reading"] as const,
    registers: [registry],
    // Counted once this scrape's readings are done, so a failure shows in the scrape it happened in.
    async collect() {
      await Promise.all(tableReadings.map((read) => read()));
    },
  });

  /**
   * One table reading per scrape, shared by the metrics it feeds; a failure (the database away) is logged
   * and counted once, and leaves those metrics unknown for this scrape: no series for those by kind, NaN
   * for the others (never a reassuring 0).
   */
  const tableReading = <T>(name: string, read: () => Promise<T>) =>
    sharedReading(async (): Promise<T | undefined> => {
      try {
        return await read();
      } catch (error) {
        readErrors.inc({ reading: name });
        sources.log.warn({ err: error, reading: name }, "metrics: a reading failed");
        return undefined;
      }
    });

  const { db, now } = sources;
  const jobs = tableReading("jobs", () => readJobQueue(db, now()));
  const failedJobs = tableReading("failed-jobs", () => readFailedJobs(db));
  const outbox = tableReading("outbox", () => readOutbox(db, now()));
  const webhooks = tableReading("webhook-deliveries", () => readWebhookDeliveries(db));
  tableReadings.push(jobs, failedJobs, outbox, webhooks);
  new Gauge({
    name: "flatfee_jobs_ready",
    help: "Jobs due now and waiting to run, by kind",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await jobs()) ?? []) this.set({ kind: row.kind }, row.ready);
    },
  });
  new Gauge({
    name: "flatfee_jobs_oldest_ready_age_seconds",
    help: "How long the longest-waiting due job has been due, by kind",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await jobs()) ?? []) this.set({ kind: row.kind }, row.oldestReadySeconds);
    },
  });
  new Gauge({
    name: "flatfee_jobs_failed",
    help: "Jobs that used up their tries and wait for an operator (npm run jobs), by kind",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await failedJobs()) ?? []) this.set({ kind: row.kind }, row.failed);
    },
  });
  new Gauge({
    name: "flatfee_outbox_unsent_emails",
    help: "Emails in the outbox not sent yet",
    registers: [registry],
    async collect() {
      this.reset();
      this.set((await outbox())?.unsent ?? Number.NaN);
    },
  });
  new Gauge({
    name: "flatfee_outbox_oldest_unsent_age_seconds",
    help: "Age of the oldest email not sent yet (0 when every email is sent)",
    registers: [registry],
    async collect() {
      this.reset();
      this.set((await outbox())?.oldestUnsentSeconds ?? Number.NaN);
    },
  });
  new Gauge({
    name: "flatfee_seller_webhook_deliveries_failed",
    help: "Sellers' webhook deliveries that failed every try and gave up (kept 30 days)",
    registers: [registry],
    async collect() {
      this.reset();
      this.set((await webhooks())?.failed ?? Number.NaN);
    },
  });
  new Gauge({
    name: "flatfee_seller_webhook_deliveries_retrying",
    help: "Sellers' webhook deliveries that failed at least once and are still retried",
    registers: [registry],
    async collect() {
      this.reset();
      this.set((await webhooks())?.retrying ?? Number.NaN);
    },
  });

  return {
    registry,
    observeRequest(request, reply) {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      };
      duration.observe({ ...labels, status_class: statusClass(reply.statusCode) }, reply.elapsedTime / 1000);
      if (reply.statusCode >= 500) serverErrors.inc(labels);
    },
  };
}
