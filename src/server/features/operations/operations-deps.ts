import type { DatabaseHandle } from "../../db/database";

/** What the operator's room needs from boot besides the shared adapters (tests pass their own). */
export interface OperationsDeps {
  /** METRICS_TOKEN: /metrics from another machine with `Authorization: Bearer …`. */
  metricsToken?: string;
  /** The database's connections, for /metrics. */
  connectionUsage?: DatabaseHandle["connectionUsage"];
  /** LISTEN reconnects, for /metrics. */
  notifications?: Pick<DatabaseHandle["notifications"], "reconnects">;
  /** PGlite's dump: present, backups are taken here (embedded mode). */
  dumpEmbedded?: DatabaseHandle["dumpEmbedded"];
  /** DATA_DIR, whose generated secrets and emulator state a backup keeps. */
  dataDir?: string;
}
