import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import { AppError, notFound } from "../../http/errors";
import { type BackupSource, writeBackup } from "./backup-archive";
import type { AppMetrics } from "./metrics";
import { mayReadMetrics, mayTakeBackup } from "./operator-access";

export interface OperationsRoutesDeps {
  metrics: AppMetrics;
  metricsToken: string | undefined;
  authSecret: string;
  /** Absent on PostgreSQL: its backups are pg_dump's (docs/operations.md). */
  backupSource: BackupSource | undefined;
  log: { error(object: object, message: string): void };
}

/**
 * The operator's routes. Anyone else gets the same 404 as for a route that does not exist: nothing tells
 * them these are here.
 */
export function registerOperationsRoutes(server: FastifyInstance, deps: OperationsRoutesDeps): void {
  server.get("/metrics", async (request, reply) => {
    if (!mayReadMetrics(request, deps.metricsToken)) throw notFound();
    const body = await deps.metrics.registry.metrics();
    return reply
      .header("content-type", deps.metrics.registry.contentType)
      .header("cache-control", "no-store")
      .send(body);
  });

  server.get("/api/operations/backup", async (request, reply) => {
    if (!mayTakeBackup(request, deps.authSecret)) throw notFound();
    const source = deps.backupSource;
    if (!source)
      throw new AppError(
        "bad_request",
        400,
        "This server's database is PostgreSQL: back it up with pg_dump, and the files with the bucket's own tools (docs/operations.md).",
      );
    const archive = new PassThrough();
    writeBackup(source, archive).catch((error: unknown) => {
      // Already streaming: the client sees the archive cut short (no manifest) and refuses it.
      deps.log.error({ err: error }, "backup failed");
      archive.destroy(error as Error);
    });
    return reply
      .header("content-type", "application/gzip")
      .header("content-disposition", 'attachment; filename="flatfee-backup.tar.gz"')
      .header("cache-control", "no-store")
      .send(archive);
  });
}
