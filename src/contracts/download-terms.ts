import { format } from "date-fns";
import { PURCHASE_RULES } from "./orders";

/**
 * What buyers are told about their downloads, in one place for every page and email (product page,
 * success and download pages, library, receipts), so they never read two different rules. Two facts:
 * a link a buyer holds expires 24 hours after it is made (a fresh one can be asked for), and a purchase
 * allows 3 downloads until the end of its 30-day window.
 */

/** "Nov 22, 2026": the day of a purchase or of the end of its download window. */
export const formatDay = (date: string | Date): string => format(new Date(date), "MMM d, yyyy");

/** True of every link at any moment, so every page can say it as is (SPEC: "link expires in 24 hours"). */
export const DOWNLOAD_LINK_TERM = `Each download link expires in ${PURCHASE_RULES.buyerLinkHours} hours.`;

/** Before buying, the window in days; after, the day it ends. */
export function downloadAllowance(windowEndsAt?: string | Date): string {
  const until = windowEndsAt
    ? `until ${formatDay(windowEndsAt)}`
    : `within ${PURCHASE_RULES.downloadWindowDays} days of purchase`;
  return `You can download up to ${PURCHASE_RULES.maxDownloads} times ${until}.`;
}

/** "Each download link expires in 24 hours. You can download up to 3 times until Nov 22, 2026." */
export function downloadTerms(windowEndsAt?: string | Date): string {
  return `${DOWNLOAD_LINK_TERM} ${downloadAllowance(windowEndsAt)}`;
}

/** "2 of 3 downloads left". */
export function downloadsLeftLabel(remaining: number): string {
  return `${remaining} of ${PURCHASE_RULES.maxDownloads} downloads left`;
}
