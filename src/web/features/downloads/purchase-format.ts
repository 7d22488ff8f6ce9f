import { format } from "date-fns";
import { PURCHASE_RULES } from "../../../contracts/orders";

/** "Nov 22, 2026": the day of a purchase or of the end of its download window. */
export const formatDay = (iso: string): string => format(new Date(iso), "MMM d, yyyy");

/** "2 of 3 downloads left". */
export function downloadsLeftLabel(remaining: number): string {
  return `${remaining} of ${PURCHASE_RULES.maxDownloads} downloads left`;
}

/** The token inside a download page path (`/download/{token}`), or null when it is not one. */
export function tokenOfDownloadPath(path: string): string | null {
  const match = /^\/download\/([^/?#]+)$/.exec(path);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}
