import { isLocalDiskStorage } from "../../adapters/storage/local-disk";
import { migrations } from "../../db/migrations";
import type { Feature } from "../feature";
import type { BackupSource } from "./backup-archive";
import { createAppMetrics } from "./metrics";
import { registerOperationsRoutes } from "./routes";

/** The last migration this code knows: what the database is at once boot has migrated it. */
export const latestSchemaVersion = (): string => Object.keys(migrations).sort().at(-1) ?? "none";

/**
 * The operator's room (docs/operations.md): /metrics (Prometheus, one registry per app) and the embedded
 * mode's backups, taken by the running server (`npm run backup` asks it for one).
 */
export const operationsFeature: Feature = {
  name: "operations",
  register: ({ server, db, storage, now, authSecret, operations }) => {
    const metrics = createAppMetrics({
      db,
      now,
      log: server.log,
      ...(operations.connectionUsage ? { connectionUsage: operations.connectionUsage } : {}),
      ...(operations.notifications ? { notifications: operations.notifications } : {}),
    });
    server.addHook("onResponse", async (request, reply) => metrics.observeRequest(request, reply));
    const dump = operations.dumpEmbedded;
    const backupSource: BackupSource | undefined = dump
      ? {
          dumpDatabase: dump,
          schemaVersion: latestSchemaVersion(),
          now,
          ...(isLocalDiskStorage(storage) ? { storageRoot: storage.root } : {}),
          ...(operations.dataDir ? { dataDir: operations.dataDir } : {}),
        }
      : undefined;
    registerOperationsRoutes(server, {
      metrics,
      metricsToken: operations.metricsToken,
      authSecret,
      backupSource,
      log: server.log,
    });
  },
};
