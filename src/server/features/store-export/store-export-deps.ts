import type { Outbox } from "../../adapters/mail/outbox";
import type { Storage } from "../../adapters/storage/storage";
import type { Database } from "../../db/database";

/** What the store export's use cases and job take. */
export interface StoreExportDeps {
  db: Database;
  storage: Storage;
  outbox: Outbox;
  now: () => Date;
  appUrl: string;
  /** Signs the archive's download links (export-link.ts). */
  linkKey: string;
}
