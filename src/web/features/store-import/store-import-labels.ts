import { formatMoney } from "../../../contracts/money";
import {
  IMPORT_PLATFORM_NAMES,
  type ImportedProductPlan,
  type ImportPlatformName,
  type ImportReport,
  type StoreImport,
} from "../../../contracts/store-import";

type Tone = "neutral" | "brand" | "success" | "danger" | "warning";

/**
 * The platforms the page offers, with the files each needs; `name` is the choice's heading (for a
 * Flatfee archive, "Another Flatfee store"), the button says "Import from" the platform's name.
 */
export const IMPORT_PLATFORM_GUIDES: ReadonlyArray<{
  platform: ImportPlatformName;
  name: string;
  files: string;
}> = [
  {
    platform: "gumroad",
    name: IMPORT_PLATFORM_NAMES.gumroad,
    files: "The Sales CSV (Dashboard → Sales → Export) and the Audience CSV.",
  },
  {
    platform: "lemonsqueezy",
    name: IMPORT_PLATFORM_NAMES.lemonsqueezy,
    files:
      "The API's JSON of products, orders, license keys and subscriptions (each page saved as a file), and the subscribers CSV.",
  },
  {
    platform: "payhip",
    name: IMPORT_PLATFORM_NAMES.payhip,
    files: "The webhook events your store received, saved as JSON.",
  },
  {
    platform: "polar",
    name: IMPORT_PLATFORM_NAMES.polar,
    files:
      "The Orders, Subscriptions and Customers CSVs from the dashboard, and the license keys JSON from the API.",
  },
  {
    platform: "flatfee",
    name: "Another Flatfee store",
    files: "The archive from Settings → Export my store.",
  },
];

/** The one or two lines for a platform's files ("" for a platform the page does not offer). */
export const platformFilesHint = (platform: ImportPlatformName): string =>
  IMPORT_PLATFORM_GUIDES.find((guide) => guide.platform === platform)?.files ?? "";

const STATUS_BADGES: Record<StoreImport["status"], { label: string; tone: Tone }> = {
  collecting: { label: "Adding files", tone: "neutral" },
  checking: { label: "Checking", tone: "brand" },
  checked: { label: "Ready to run", tone: "brand" },
  importing: { label: "Importing", tone: "brand" },
  imported: { label: "Imported", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};

/** An import's state as its badge says it. */
export const importStatusBadge = (status: StoreImport["status"]) => STATUS_BADGES[status];

/** Whether the page polls the import: the server is working on it. */
export const isImportWorking = (status: StoreImport["status"]) =>
  status === "checking" || status === "importing";

/** A product's row in the dry run: what running the import does with it. */
export function productStatusBadge(
  product: Pick<ImportedProductPlan, "status" | "currency">,
  storeCurrency: string,
): { label: string; tone: Tone } {
  switch (product.status) {
    case "new":
      return { label: "Will be created", tone: "success" };
    case "needs-files":
      return { label: "Add its files", tone: "warning" };
    case "imported":
      return { label: "Already imported", tone: "neutral" };
    case "other-currency":
      return {
        label: `Priced in ${product.currency.toUpperCase()}: your store sells in ${storeCurrency.toUpperCase()}`,
        tone: "danger",
      };
  }
}

/** Whether the creator may still attach files to a product of the dry run. */
export const productTakesFiles = (product: Pick<ImportedProductPlan, "status">) =>
  product.status === "new" || product.status === "needs-files";

/** "$19.00", or "Free" for a price of 0. */
export const productPrice = (product: Pick<ImportedProductPlan, "priceCents" | "currency">) =>
  product.priceCents === 0 ? "Free" : formatMoney(product.priceCents, product.currency);

/** "Line 12 of sales.csv: Purchase Email is empty" */
export const problemLine = (problem: ImportReport["problems"][number]) =>
  `Line ${problem.line} of ${problem.file}: ${problem.reason}`;

/** Under a capped list: "Showing the first 200 of 1,250." (null when the list holds them all). */
export function moreThanListed(listed: number, total: number): string | null {
  if (total <= listed) return null;
  return `Showing the first ${listed.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}.`;
}

/** The run's bar: a whole percentage that reaches 100 only when every record is done. */
export function progressPercent({ done, total }: StoreImport["progress"]): number {
  if (total <= 0) return 0;
  if (done >= total) return 100;
  return Math.min(Math.floor((done / total) * 100), 99);
}

/** "1 product", "3 products": a count with its noun. */
export const counted = (count: number, one: string, many: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/** "Mar 5, 2026, 2:30 PM": when an import started or finished (a seller may start several a day). */
export const importDate = (iso: string) =>
  new Date(iso).toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });

/** The dry run's summary, one number per thing the run does or leaves, in the page's order. */
export function reportSummary(counts: ImportReport["counts"]): Array<{ label: string; value: number }> {
  return [
    { label: "New products", value: counts.products.new },
    { label: "Products already here", value: counts.products.existing },
    { label: "New past orders", value: counts.orders.new },
    { label: "Orders already imported", value: counts.orders.existing },
    { label: "Refunded orders", value: counts.refundedOrders },
    { label: "License keys", value: counts.licenseKeys },
    // Everyone the files name: buyers, and followers who never bought (kept only for their opt-outs).
    { label: "People in the files", value: counts.customers },
    { label: "Unsubscribed", value: counts.unsubscribed },
    { label: "Subscriptions to re-subscribe", value: counts.subscriptions },
    { label: "Buyers who would get the email", value: counts.buyers },
  ];
}

/**
 * The step an import is at, from 0 (the platform, chosen before an import exists) to 3 (the run). A
 * failed import failed at its dry run when it has no report yet, else at its run.
 */
export function importStep(status: StoreImport["status"] | undefined, hasReport = false): 0 | 1 | 2 | 3 {
  if (!status) return 0;
  if (status === "collecting") return 1;
  if (status === "checking" || status === "checked") return 2;
  if (status === "failed" && !hasReport) return 2;
  return 3;
}
