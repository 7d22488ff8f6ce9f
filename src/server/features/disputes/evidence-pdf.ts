import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type DisputeEvidence, disputeReasonLabel } from "../../../contracts/disputes";
import { formatMoney } from "../../../contracts/money";
import { formatDeadline } from "./emails";
import {
  assembledActivityLog,
  cutLines,
  type DisputeFacts,
  fittedActivityLines,
  receiptLines,
} from "./evidence";

// DejaVu Sans, as the invoices use (any buyer's name prints), embedded as a subset.
const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;
function loadFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    bold: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")),
  };
  return fonts;
}

const INK = "#111827";
const MUTED = "#6b7280";
const BRAND = "#4f46e5";

export const evidenceFileName = (disputeId: string) =>
  `dispute-evidence-${disputeId.replace(/[^A-Za-z0-9_-]/g, "_")}.pdf`;

/**
 * The evidence as one A4 page (docs/disputes.md): the dispute, the receipt, what the buyer accepted at
 * checkout, the product, the download and license activity, the terms and the creator's own notes, from
 * the evidence as it stands (the creator's edits included). Each section gets at most its share of the
 * page (the shares and headings add up to less than an A4 page) and is cut with an ellipsis beyond it,
 * so the document is always one page. The activity is cut by whole entries instead: as assembled, its
 * newest downloads and verifications that fit, the older ones counted ("… and 41 earlier"); as the
 * creator edited it, its first lines that fit and how many more there are.
 */
export async function renderEvidencePdf(facts: DisputeFacts, evidence: DisputeEvidence): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const { regular, bold } = loadFonts();
  const { dispute, order } = facts;
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: 40, bottom: 40, left: 48, right: 48 },
    info: {
      Title: `Dispute evidence ${dispute.id}`,
      Subject: `Evidence for dispute ${dispute.id} of order ${order.id}`,
      Creator: "Flatfee",
      Producer: "Flatfee",
      CreationDate: dispute.created_at,
    },
  });
  doc.registerFont("regular", regular);
  doc.registerFont("bold", bold);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = doc.page.height - doc.page.margins.bottom;
  doc.rect(0, 0, doc.page.width, 5).fill(BRAND);
  doc.font("bold").fontSize(16).fillColor(INK).text("Dispute evidence", left, 36, { width });
  doc
    .font("regular")
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(
      `Dispute ${dispute.id} · ${formatMoney(dispute.amount_cents, dispute.currency)} · reason: ${disputeReasonLabel(dispute.reason)}${
        dispute.due_by ? ` · evidence due ${formatDeadline(dispute.due_by)}` : ""
      }`,
      { width },
    );

  // The activity within its room: whole entries, and what was left out said.
  const fitActivity = (text: string, fits: (candidate: string) => boolean) =>
    text === assembledActivityLog(facts)
      ? fittedActivityLines(facts, (lines) => fits(lines.join("\n"))).join("\n")
      : cutLines(text, fits, "in the activity log submitted with this evidence");
  type Fit = (text: string, fits: (candidate: string) => boolean) => string;
  const textOptions = { width, lineGap: 1 };
  const sections: Array<[string, string, number, Fit?]> = [
    ["Receipt", receiptLines(facts).join("\n"), 80],
    [
      "Customer",
      [
        evidence.customer_name,
        evidence.customer_email_address,
        evidence.customer_purchase_ip && `IP ${evidence.customer_purchase_ip}`,
      ]
        .filter(Boolean)
        .join(" · "),
      20,
    ],
    // The creator's own account first: it is never the part cut for room.
    ["Why no refund was given", evidence.refund_refusal_explanation, 60],
    ["Terms and what the buyer accepted at checkout", evidence.refund_policy_disclosure, 90],
    [
      "Product and delivery",
      `${evidence.product_description}${evidence.service_date ? `\nDate of purchase: ${evidence.service_date}` : ""}`,
      110,
    ],
    ["Download and license activity", evidence.access_activity_log, 130, fitActivity],
    ["Other information", evidence.uncategorized_text, 50],
  ];
  for (const [title, text, cap, fitToRoom] of sections) {
    if (!text.trim()) continue;
    const y = doc.y + 8;
    if (y + 24 > bottom) break;
    doc.font("bold").fontSize(9).fillColor(INK).text(title, left, y, { width });
    const room = Math.min(cap, bottom - doc.y - 2);
    if (room < 10) break;
    doc.font("regular").fontSize(8).fillColor(INK);
    const body = fitToRoom
      ? fitToRoom(text, (candidate) => doc.heightOfString(candidate, textOptions) <= room)
      : text;
    doc.text(body, left, doc.y + 2, { ...textOptions, height: room, ellipsis: true });
  }
  doc.end();
  return done;
}
