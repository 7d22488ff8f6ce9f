import { format } from "date-fns";
import { PURCHASE_RULES } from "./orders";

/**
 * What buyers are told about their downloads, in one place for every page and email (product page,
 * success and download pages, library, receipts), so they never read two different rules. Two facts:
 * a link a buyer holds expires 24 hours after it is made (a fresh one can be asked for), and a purchase
 * allows 3 downloads of each of its files until the end of its 30-day window.
 *
 * The rule with several files: 3 downloads per file, counted per order and file on the server
 * (downloads/download-link.ts, one conditional upsert). A file the seller adds later comes with its own
 * 3; a replaced file's new version too (it is a new upload); a removed file is gone for everyone.
 */

/** "Nov 22, 2026": the day of a purchase or of the end of its download window. */
export const formatDay = (date: string | Date): string => format(new Date(date), "MMM d, yyyy");

/** True of every link at any moment, so every page can say it as is (product rules, Screens and routes: "link expires in 24 hours"). */
export const DOWNLOAD_LINK_TERM = `Each download link expires in ${PURCHASE_RULES.buyerLinkHours} hours.`;

/** Before buying, the window in days; after, the day it ends. */
export function downloadAllowance(windowEndsAt?: string | Date): string {
  const until = windowEndsAt
    ? `until ${formatDay(windowEndsAt)}`
    : `within ${PURCHASE_RULES.downloadWindowDays} days of purchase`;
  return `You can download each file up to ${PURCHASE_RULES.maxDownloads} times ${until}.`;
}

/** "Each download link expires in 24 hours. You can download each file up to 3 times until Nov 22, 2026." */
export function downloadTerms(windowEndsAt?: string | Date): string {
  return `${DOWNLOAD_LINK_TERM} ${downloadAllowance(windowEndsAt)}`;
}

/** "2 of 3 downloads left" (of one file). */
export function downloadsLeftLabel(remaining: number): string {
  return `${remaining} of ${PURCHASE_RULES.maxDownloads} downloads left`;
}

/** The product page's line on what a purchase holds, when it is more than one file. */
export const filesIncludedLabel = (fileCount: number): string => `${fileCount} files included.`;

/** An email's or page's button to the download page. */
export const downloadButtonLabel = (fileCount: number): string =>
  fileCount > 1 ? `Download your ${fileCount} files` : "Download your file";

/** What is left of a purchase, in a sentence: one file's count, or that each file has its own. */
export function downloadsLeftSummary(files: { downloadsRemaining: number }[]): string {
  const [only] = files;
  if (files.length === 1 && only) return `${downloadsLeftLabel(only.downloadsRemaining)}.`;
  return `${files.length} files, each with its own ${PURCHASE_RULES.maxDownloads} downloads.`;
}
