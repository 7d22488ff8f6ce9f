import { downloadStartSchema } from "../../../contracts/orders";
import { api } from "../../lib/api";

/** Counts one download, logs it and answers a storage URL for that one download, valid a minute. */
export function startDownload(token: string) {
  return api(`/api/downloads/${encodeURIComponent(token)}`, { method: "POST", schema: downloadStartSchema });
}
