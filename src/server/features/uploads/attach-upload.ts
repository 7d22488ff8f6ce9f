import type { UploadPurpose } from "../../../contracts/uploads";
import type { Database } from "../../db/database";
import { badRequest } from "../../http/errors";
import type { UploadRow } from "./queries";

/**
 * For the products feature, inside its own transaction: takes a checked upload of this seller for a
 * product (or a store profile), so it can no longer be deleted on its own. Refuses uploads that are
 * not this seller's, not of this purpose, not yet checked or already used.
 */
export async function attachUpload(
  db: Database,
  sellerId: string,
  uploadId: string,
  purpose: UploadPurpose,
): Promise<UploadRow> {
  const attached = await db
    .updateTable("uploads")
    .set({ status: "attached" })
    .where("id", "=", uploadId)
    .where("seller_id", "=", sellerId)
    .where("purpose", "=", purpose)
    .where("status", "=", "completed")
    .returningAll()
    .executeTakeFirst();
  if (!attached) throw badRequest("This file is not ready. Please upload it again.", "upload_not_ready");
  return attached;
}
