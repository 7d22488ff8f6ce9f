import { z } from "zod";
import { commitChange } from "../../adapters/events/commit-change";
import { type EventBus, PUBLIC_PAGES_CHANGED } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";

/** The new store's address: an http(s) URL (the store page there), or null when the store has not moved. */
export const storeMovedSchema = z.object({
  movedTo: z
    .string()
    .trim()
    .max(500, "Use an address of at most 500 characters.")
    .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), {
      message: "Enter your new store's address, starting with https://",
    })
    .nullable(),
});

export async function storeMovedTo(db: Database, sellerId: string): Promise<{ movedTo: string | null }> {
  const row = await db
    .selectFrom("profiles")
    .select("moved_to")
    .where("id", "=", sellerId)
    .executeTakeFirst();
  return { movedTo: row?.moved_to ?? null };
}

/**
 * The creator moved their store (docs/store-import.md, "When the store has moved"): its store page here
 * redirects to the new store, each product page to the same product id there (an archive import keeps
 * ids), and checkout here is refused. Null undoes it. The public pages' caches hear of it at once.
 */
export async function setStoreMovedTo(
  deps: { db: Database; events: EventBus },
  sellerId: string,
  movedTo: string | null,
): Promise<{ movedTo: string | null }> {
  await commitChange(deps, async (trx, announce) => {
    await trx.updateTable("profiles").set({ moved_to: movedTo }).where("id", "=", sellerId).execute();
    announce(sellerId, PUBLIC_PAGES_CHANGED);
  });
  return { movedTo };
}
