import type { DownloadClaims } from "../../adapters/storage/local-disk";
import type { Database } from "../../db/database";
import type { DownloadLinkUse } from "../uploads";

/**
 * Whether a local storage link may serve a request (features/uploads/file-routes.ts asks). A link
 * minted by startDownload is bound to its order and to its one download: the order must still be
 * completed (not refunded, not withheld by a dispute) and inside its window, at every request. The first request for the whole
 * file uses the link up, with one conditional update, so two at once cannot both have it; a request
 * resuming it is only served once it has been used, while it is valid; a HEAD uses nothing.
 */
export function storageLinkGate(db: Database, now: () => Date) {
  return async (claims: DownloadClaims, request: { use: DownloadLinkUse }): Promise<boolean> => {
    if (!claims.grant) return true;
    const { orderId, downloadId } = claims.grant;
    const at = now();
    const servableOrder = db
      .selectFrom("orders")
      .select("orders.id")
      .where("orders.id", "=", orderId)
      .where("orders.status", "=", "completed")
      .where("orders.download_window_ends_at", ">", at)
      // Nor while its sale is disputed, or after a lost dispute (docs/disputes.md).
      .where((eb) =>
        eb.or([eb("orders.dispute_status", "is", null), eb("orders.dispute_status", "=", "won")]),
      );
    if (request.use === "start") {
      const used = await db
        .updateTable("download_logs")
        .set({ link_used_at: at })
        .where("id", "=", downloadId)
        .where("order_id", "=", orderId)
        .where("link_used_at", "is", null)
        .where(({ exists }) => exists(servableOrder))
        .returning("id")
        .executeTakeFirst();
      return Boolean(used);
    }
    let download = db
      .selectFrom("download_logs")
      .select("id")
      .where("id", "=", downloadId)
      .where("order_id", "=", orderId)
      .where(({ exists }) => exists(servableOrder));
    if (request.use === "resume") download = download.where("link_used_at", "is not", null);
    return Boolean(await download.executeTakeFirst());
  };
}
