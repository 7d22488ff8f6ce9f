import type { ArchiveWebhook } from "../../../../contracts/store-archive";
import type { Database } from "../../../db/database";
import { iso, keysetPages, type PageOptions, recordsOnly, textKey } from "./keyset";

/** webhooks.ndjson: each endpoint's address and events. The signing secret is never selected. */
export function readWebhooks(db: Database, sellerId: string, options?: PageOptions) {
  return keysetPages(
    {
      key: textKey,
      fetch: (after, limit) =>
        db
          .selectFrom("webhook_endpoints")
          .select(["id", "url", "events", "created_at"])
          .where("seller_id", "=", sellerId)
          .$if(after !== undefined, (query) => query.where("id", ">", after![0]))
          .orderBy("id")
          .limit(limit)
          .execute(),
      keyOf: (row) => [row.id] as [string],
      toPage: recordsOnly((rows) =>
        rows.map(
          (row): ArchiveWebhook => ({
            id: row.id,
            url: row.url,
            events: row.events,
            createdAt: iso(row.created_at),
          }),
        ),
      ),
    },
    options,
  );
}
