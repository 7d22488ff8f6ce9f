import { downloadStartSchema } from "../../../contracts/orders";
import { api } from "../../lib/api";

/** Counts one download of one file, logs it and answers a storage URL for that one download, valid a minute. */
export function startDownload({ token, fileId }: { token: string; fileId: string }) {
  return api(`/api/downloads/${encodeURIComponent(token)}`, {
    method: "POST",
    body: { fileId },
    schema: downloadStartSchema,
  });
}
