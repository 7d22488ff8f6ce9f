import { sql } from "kysely";
import {
  DISPUTE_EVIDENCE_FIELDS,
  DISPUTE_LIMITS,
  DISPUTE_MESSAGES,
  type DisputeEvidence,
  disputeReasonLabel,
} from "../../../contracts/disputes";
import { downloadTerms } from "../../../contracts/download-terms";
import { formatMoney } from "../../../contracts/money";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import { countryName } from "../../../contracts/tax";
import type { Database } from "../../db/database";
import type { LicenseVerificationOutcome } from "../../db/schema";
import { notFound } from "../../http/errors";

/** Everything the evidence is made of, read for one seller's dispute (another seller's is not found). */
export async function readDisputeFacts(db: Database, sellerId: string, disputeId: string) {
  const dispute = await db
    .selectFrom("disputes")
    .selectAll()
    .where("id", "=", disputeId)
    .where("seller_id", "=", sellerId)
    .executeTakeFirst();
  if (!dispute) throw notFound(DISPUTE_MESSAGES.notFound);
  const order = await db
    .selectFrom("orders")
    .leftJoin("products", "products.id", "orders.product_id")
    .leftJoin("profiles", "profiles.id", "orders.seller_id")
    .select([
      "orders.id",
      "orders.product_title",
      "orders.customer_email",
      "orders.buyer_name",
      "orders.buyer_country",
      "orders.amount_cents",
      "orders.currency",
      "orders.tax_cents",
      "orders.discount_code",
      "orders.discount_cents",
      "orders.created_at",
      "orders.download_window_ends_at",
      "orders.withdrawal_waiver",
      "orders.withdrawal_waiver_at",
      "orders.payment_intent_id",
      "products.description as product_description",
      "profiles.store_name",
    ])
    .where("orders.id", "=", dispute.order_id)
    .where("orders.seller_id", "=", sellerId)
    .executeTakeFirstOrThrow();
  const [downloads, license, verifications] = await Promise.all([
    latestDownloads(db, order.id),
    db
      .selectFrom("license_keys")
      .select(["key", "uses", "last_verified_at", "created_at", "disabled_at"])
      .where("order_id", "=", order.id)
      .where("seller_id", "=", sellerId)
      .executeTakeFirst(),
    latestVerifications(db, sellerId, order.id),
  ]);
  return { dispute, order, downloads, license: license ?? null, verifications };
}
export type DisputeFacts = Awaited<ReturnType<typeof readDisputeFacts>>;

/**
 * The newest entries of a log (at most DISPUTE_LIMITS.activityListed), oldest first, with how many there
 * are in all and when the first was: one read through the order's index, the count a window over it.
 */
interface LatestEntries<Row> {
  rows: Row[];
  total: number;
  firstAt: Date | null;
}
function latest<Row extends { created_at: Date; total: number | string; first_at: Date }>(
  rows: Row[],
): LatestEntries<Omit<Row, "total" | "first_at">> {
  const first = rows[0];
  return {
    rows: rows.map(({ total: _total, first_at: _first, ...row }) => row).reverse(),
    total: first ? Number(first.total) : 0,
    firstAt: first ? first.first_at : null,
  };
}

/** The order's downloads: time, file, the link's use, the country the proxy's header said, the user agent. */
async function latestDownloads(db: Database, orderId: string) {
  const rows = await db
    .selectFrom("download_logs")
    .leftJoin("uploads", "uploads.id", "download_logs.upload_id")
    .select([
      "download_logs.created_at",
      "download_logs.user_agent",
      "download_logs.country",
      "download_logs.link_used_at",
      "uploads.original_name as file_name",
      sql<string>`count(*) over ()`.as("total"),
      sql<Date>`min(download_logs.created_at) over ()`.as("first_at"),
    ])
    .where("download_logs.order_id", "=", orderId)
    .orderBy("download_logs.created_at", "desc")
    .orderBy("download_logs.id", "desc")
    .limit(DISPUTE_LIMITS.activityListed)
    .execute();
  return latest(rows);
}

/** The order's license key's verifications (license_verifications), the seller's only. */
async function latestVerifications(db: Database, sellerId: string, orderId: string) {
  const rows = await db
    .selectFrom("license_verifications")
    .select([
      "created_at",
      "outcome",
      "increment_uses",
      "uses",
      "country",
      "user_agent",
      sql<string>`count(*) over ()`.as("total"),
      sql<Date>`min(created_at) over ()`.as("first_at"),
    ])
    .where("order_id", "=", orderId)
    .where("seller_id", "=", sellerId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(DISPUTE_LIMITS.activityListed)
    .execute();
  return latest(rows);
}

const stamp = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
const day = (date: Date) => date.toISOString().slice(0, 10);

/** "from Germany (DE)": where a request came from, when the proxy's header said it. */
const fromCountry = (code: string | null) => (code ? ` from ${countryName(code)} (${code})` : "");

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const VERIFICATION_RESULTS: Record<LicenseVerificationOutcome, string> = {
  valid: "valid",
  disabled: "refused, the creator had disabled the key",
  refunded: "refused, the order had been refunded",
  disputed: "refused, suspended during the payment dispute",
  dispute_lost: "refused, the payment dispute had been lost",
};

type Verification = DisputeFacts["verifications"]["rows"][number];
function verificationResult(check: Verification): string {
  if (check.outcome !== "valid") return VERIFICATION_RESULTS[check.outcome];
  return check.increment_uses ? `valid, use ${check.uses}` : "valid, checked without counting a use";
}

/** How many of each log's newest entries an activity text lists (the rest are counted, not listed). */
export interface ActivityShown {
  downloads: number;
  verifications: number;
}

/**
 * The download log and the license key's verifications, one line each, oldest first within each (what
 * `access_activity_log` says): the newest `shown` of each, older ones counted in one line ("… and 41
 * earlier"). Downloads say the file, the country the proxy's header said (none when no header is set up:
 * no IP is kept or looked up), and the user agent; verifications their outcome and use.
 */
export function activityLines(facts: DisputeFacts, shown?: ActivityShown): string[] {
  const { downloads, verifications } = facts;
  const listedDownloads = downloads.rows.slice(
    downloads.rows.length - (shown?.downloads ?? downloads.rows.length),
  );
  const lines: string[] = [];
  if (downloads.total === 0) lines.push("No download was made.");
  const earlierDownloads = downloads.total - listedDownloads.length;
  if (earlierDownloads > 0 && downloads.firstAt) {
    lines.push(
      `… and ${plural(earlierDownloads, "earlier download", "earlier downloads")}, the first ${stamp(downloads.firstAt)}, not listed here.`,
    );
  }
  for (const download of listedDownloads) {
    lines.push(
      `${stamp(download.created_at)} downloaded ${download.file_name ?? "the product's file"}${
        download.link_used_at ? "" : " (link issued, not used)"
      }${fromCountry(download.country)}${download.user_agent ? ` with ${download.user_agent}` : ""}`,
    );
  }
  if (facts.license) {
    lines.push(
      `License key ${facts.license.key} issued ${stamp(facts.license.created_at)}; verified ${plural(facts.license.uses, "time", "times")} by the creator's software${facts.license.last_verified_at ? `, last ${stamp(facts.license.last_verified_at)}` : ""}.`,
    );
    const listed = verifications.rows.slice(
      verifications.rows.length - (shown?.verifications ?? verifications.rows.length),
    );
    const earlier = verifications.total - listed.length;
    if (earlier > 0 && verifications.firstAt) {
      lines.push(
        `… and ${plural(earlier, "earlier verification", "earlier verifications")}, the first ${stamp(verifications.firstAt)}, not listed here.`,
      );
    }
    for (const check of listed) {
      lines.push(
        `${stamp(check.created_at)} license key verified by the creator's software${fromCountry(check.country)}: ${verificationResult(check)}${
          check.user_agent ? ` (${check.user_agent})` : ""
        }`,
      );
    }
  }
  return lines;
}

/**
 * The activity with as many of each log's newest entries as `fits` takes (a text field's limit, the PDF's
 * room), the older ones counted: a binary search over how many are listed in all, shared between the two
 * logs (downloads keep at least half). At worst only the summaries and the counts.
 */
export function fittedActivityLines(facts: DisputeFacts, fits: (lines: string[]) => boolean): string[] {
  const downloads = facts.downloads.rows.length;
  const verifications = facts.license ? facts.verifications.rows.length : 0;
  const split = (listed: number): ActivityShown => {
    const fromDownloads = Math.min(downloads, Math.max(Math.ceil(listed / 2), listed - verifications));
    return { downloads: fromDownloads, verifications: listed - fromDownloads };
  };
  const all = activityLines(facts);
  if (fits(all)) return all;
  let low = 0;
  let high = downloads + verifications - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(activityLines(facts, split(middle)))) low = middle;
    else high = middle - 1;
  }
  return activityLines(facts, split(low));
}

const fitsTextField = (lines: string[]) => lines.join("\n").length <= DISPUTE_LIMITS.evidenceFieldMaxLength;

/** `access_activity_log` as assembled: within Stripe's 20,000 characters, the oldest entries counted, not listed. */
export const assembledActivityLog = (facts: DisputeFacts) =>
  fittedActivityLines(facts, fitsTextField).join("\n");

/**
 * As many of a text's first lines as `fits` takes, then one line saying how many were left out (the
 * creator's own activity text in the PDF: the whole of it is in the field submitted with it).
 */
export function cutLines(text: string, fits: (text: string) => boolean, where: string): string {
  if (fits(text)) return text;
  const lines = text.split("\n");
  const cut = (kept: number) =>
    [
      ...lines.slice(0, kept),
      `… and ${plural(lines.length - kept, "more line", "more lines")} ${where}.`,
    ].join("\n");
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(cut(middle))) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}

/** The checkout's receipt, as lines: what was bought, by whom, when and for how much. */
export function receiptLines(facts: DisputeFacts): string[] {
  const { order } = facts;
  const money = (amount: number) => formatMoney(amount, order.currency);
  return [
    `Order ${order.id}, paid ${stamp(order.created_at)}`,
    `Product: ${order.product_title}`,
    `Amount paid: ${money(order.amount_cents)}${order.tax_cents > 0 ? ` (tax ${money(order.tax_cents)} included)` : ""}${
      order.discount_code ? `, discount code ${order.discount_code} saved ${money(order.discount_cents)}` : ""
    }`,
    `Buyer: ${order.buyer_name ? `${order.buyer_name} <${order.customer_email}>` : order.customer_email}${
      order.buyer_country ? `, ${order.buyer_country}` : ""
    }`,
    `Seller: ${order.store_name ?? STORE_FALLBACK_NAME}`,
    `Stripe payment: ${order.payment_intent_id ?? "none"}`,
  ];
}

/** What the buyer accepted at checkout: the terms shown, and the withdrawal waiver's wording when they ticked it. */
export function consentLines(facts: DisputeFacts): string[] {
  const { order } = facts;
  const lines = [
    `Before paying, the product page and Checkout said: "${downloadTerms()}" The receipt email and the download page repeated it, with the link.`,
  ];
  if (order.withdrawal_waiver) {
    lines.push(
      `At checkout the buyer ticked the box "${order.withdrawal_waiver}"${
        order.withdrawal_waiver_at ? ` (${stamp(order.withdrawal_waiver_at)})` : ""
      }.`,
    );
  }
  return lines;
}

/** The purchase's terms: its downloads, and how refunds work. */
export const termsLine = (facts: DisputeFacts) =>
  `Terms: ${downloadTerms(facts.order.download_window_ends_at)} Refunds are made by the creator on request; a refund ends the download links and the license key at once.`;

const clip = (text: string) => text.slice(0, DISPUTE_LIMITS.evidenceFieldMaxLength);

/**
 * The evidence as assembled from the records (docs/disputes.md): Stripe's text fields, each within its
 * limit. The creator reviews and may edit each before submitting.
 */
export function assembledEvidence(facts: DisputeFacts): DisputeEvidence {
  const { order, dispute } = facts;
  const store = order.store_name ?? STORE_FALLBACK_NAME;
  const description = order.product_description?.trim();
  const evidence: DisputeEvidence = {
    customer_name: order.buyer_name ?? "",
    customer_email_address: order.customer_email,
    customer_purchase_ip: "",
    product_description: [
      `"${order.product_title}": a digital product (downloadable files) sold by ${store}. It was delivered at once after payment: a download link on the order's success page and in the receipt emailed to ${order.customer_email}.`,
      description ? `The product page describes it as:\n${description}` : "",
    ]
      .filter(Boolean)
      .join("\n\n"),
    service_date: day(order.created_at),
    access_activity_log: assembledActivityLog(facts),
    refund_policy_disclosure: [termsLine(facts), ...consentLines(facts)].join("\n"),
    refund_refusal_explanation: "",
    uncategorized_text: `Dispute ${dispute.id} (${disputeReasonLabel(dispute.reason)}). The attached PDF has the receipt, the download log, the license verifications and what the buyer accepted at checkout.`,
  };
  return Object.fromEntries(
    DISPUTE_EVIDENCE_FIELDS.map((field) => [field, clip(evidence[field])]),
  ) as DisputeEvidence;
}

/** The creator's saved draft over the assembled evidence (a field they never saved stays as assembled). */
export function currentEvidence(facts: DisputeFacts): DisputeEvidence {
  const assembled = assembledEvidence(facts);
  const draft = facts.dispute.evidence ?? {};
  return Object.fromEntries(
    DISPUTE_EVIDENCE_FIELDS.map((field) => [
      field,
      typeof draft[field] === "string" ? draft[field] : assembled[field],
    ]),
  ) as DisputeEvidence;
}
