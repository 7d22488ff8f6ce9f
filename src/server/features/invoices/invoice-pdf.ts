import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Readable } from "node:stream";
import type { Selectable } from "kysely";
import { INVOICE_KIND_LABELS, type InvoiceParty, REVERSE_CHARGE_NOTE } from "../../../contracts/invoices";
import { formatMoney } from "../../../contracts/money";
import type { InvoiceTable } from "../../db/schema";

export type InvoiceRow = Selectable<InvoiceTable>;

/** What a credit note prints of the invoice it cancels. */
export interface InvoiceRenderExtras {
  creditedNumberText?: string | null;
}

// DejaVu Sans (dejavu-fonts-ttf, free licence allowing redistribution): Latin, Greek and Cyrillic at
// least, so any buyer's or seller's name prints; embedded as a subset of the glyphs used.
const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;
function loadFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    bold: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")),
  };
  return fonts;
}

const DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const day = (date: Date | string) => DAY.format(new Date(date));

/** An amount of the invoice's currency as text, by contracts/money.ts: "-$19.99" for a credit, "¥1,500". */
const moneyIn = (currency: string) => (amount: number) =>
  amount < 0 ? `-${formatMoney(-amount, currency)}` : formatMoney(amount, currency);

const INK = "#111827";
const MUTED = "#6b7280";
const LINE = "#d1d5db";
const BRAND = "#4f46e5";

/** A document's file name: its number, and its version when corrected. */
export const invoiceFileName = (row: Pick<InvoiceRow, "number_text" | "version">) =>
  `${row.number_text.replace(/[^A-Za-z0-9._-]/g, "_")}${row.version > 1 ? `-v${row.version}` : ""}.pdf`;

/**
 * The document as an A4 PDF, rendered from its stored snapshot alone (the same row gives the same
 * pages): seller and buyer, number, dates, the line, tax or the reverse-charge note, the total, the
 * payment, the withdrawal waiver's wording, and the seller of record. A stream: nothing is kept.
 */
export async function renderInvoicePdf(row: InvoiceRow, extras: InvoiceRenderExtras = {}): Promise<Readable> {
  const money = moneyIn(row.currency);
  const { default: PDFDocument } = await import("pdfkit");
  const { regular, bold } = loadFonts();
  const credit = row.kind === "credit_note";
  const title = INVOICE_KIND_LABELS[row.kind];
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: 56, bottom: 56, left: 56, right: 56 },
    info: {
      Title: `${title} ${row.number_text}`,
      Author: row.seller.name ?? "",
      Subject: `${title} ${row.number_text}`,
      Creator: "Flatfee",
      Producer: "Flatfee",
      CreationDate: row.created_at,
    },
  });
  doc.registerFont("regular", regular);
  doc.registerFont("bold", bold);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const half = (width - 24) / 2;

  // Heading: the kind and number, the dates on the right.
  doc.rect(0, 0, doc.page.width, 6).fill(BRAND);
  doc.font("bold").fontSize(22).fillColor(INK).text(title, left, 56, { width: half });
  doc.font("regular").fontSize(10).fillColor(MUTED);
  const facts: [string, string][] = [
    [`${title} number`, row.number_text],
    [credit ? "Date of credit note" : "Invoice date", day(row.issued_at)],
    ["Payment date", day(row.paid_at)],
    ["Currency", row.currency.toUpperCase()],
  ];
  if (credit && extras.creditedNumberText) facts.splice(1, 0, ["Credits invoice", extras.creditedNumberText]);
  let y = 58;
  for (const [label, value] of facts) {
    doc
      .font("regular")
      .fillColor(MUTED)
      .text(label, left + half + 24, y, { width: half / 2 });
    doc
      .font("bold")
      .fillColor(INK)
      .text(value, left + half + 24 + half / 2, y, { width: half / 2, align: "right" });
    y += 16;
  }
  if (row.version > 1) {
    doc
      .font("bold")
      .fontSize(10)
      .fillColor(BRAND)
      .text(`Corrected ${title.toLowerCase()}, version ${row.version}`, left, 86, { width: half });
  }

  // Seller and buyer.
  y = Math.max(y, 110) + 24;
  const sellerBottom = partyBlock(doc, "From", row.seller, left, y, half);
  const buyerBottom = partyBlock(doc, "Bill to", row.buyer, left + half + 24, y, half);
  y = Math.max(sellerBottom, buyerBottom) + 28;

  // The lines.
  const columns = { net: width - 230, tax: width - 155, total: width - 80 };
  doc.font("bold").fontSize(9).fillColor(MUTED);
  doc.text("DESCRIPTION", left, y, { width: columns.net - 12 });
  doc.text("NET", left + columns.net, y, { width: 70, align: "right" });
  doc.text("TAX", left + columns.tax, y, { width: 70, align: "right" });
  doc.text("TOTAL", left + columns.total, y, { width: 80, align: "right" });
  y += 16;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.75)
    .strokeColor(LINE)
    .stroke();
  y += 10;
  for (const line of row.lines) {
    doc
      .font("bold")
      .fontSize(10.5)
      .fillColor(INK)
      .text(line.description, left, y, { width: columns.net - 12 });
    let bottom = doc.y;
    if (line.periodStart && line.periodEnd) {
      doc
        .font("regular")
        .fontSize(9)
        .fillColor(MUTED)
        .text(`Membership period ${day(line.periodStart)} – ${day(line.periodEnd)}`, left, bottom + 2, {
          width: columns.net - 12,
        });
      bottom = doc.y;
    }
    if (line.taxLabel) {
      doc
        .font("regular")
        .fontSize(9)
        .fillColor(MUTED)
        .text(line.taxLabel, left, bottom + 2, {
          width: columns.net - 12,
        });
      bottom = doc.y;
    }
    doc.font("regular").fontSize(10.5).fillColor(INK);
    doc.text(money(line.netCents), left + columns.net, y, { width: 70, align: "right" });
    doc.text(money(line.taxCents), left + columns.tax, y, { width: 70, align: "right" });
    doc.text(money(line.totalCents), left + columns.total, y, { width: 80, align: "right" });
    y = Math.max(bottom, doc.y) + 10;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    y += 12;
  }

  // Totals.
  const totalsX = left + width - 250;
  const totalRow = (label: string, value: string, strong = false) => {
    doc
      .font(strong ? "bold" : "regular")
      .fontSize(strong ? 12 : 10.5)
      .fillColor(INK);
    doc.text(label, totalsX, y, { width: 160 });
    doc.text(value, totalsX + 160, y, { width: 90, align: "right" });
    y = doc.y + 6;
  };
  totalRow("Subtotal (net)", money(row.subtotal_cents));
  const taxLabels = [...new Set(row.lines.map((line) => line.taxLabel).filter(Boolean))];
  if (row.tax_cents !== 0) totalRow(taxLabels.join(", ") || "Tax", money(row.tax_cents));
  else if (!row.reverse_charge) totalRow("Tax", money(0));
  doc
    .moveTo(totalsX, y)
    .lineTo(left + width, y)
    .lineWidth(0.75)
    .strokeColor(INK)
    .stroke();
  y += 8;
  totalRow(`Total (${row.currency.toUpperCase()})`, money(row.total_cents), true);
  y += 10;

  const note = (text: string, options: { bold?: boolean; color?: string } = {}) => {
    doc
      .font(options.bold ? "bold" : "regular")
      .fontSize(9.5)
      .fillColor(options.color ?? INK)
      .text(text, left, y, { width });
    y = doc.y + 8;
  };
  if (row.reverse_charge) note(REVERSE_CHARGE_NOTE, { bold: true });
  const cancels = extras.creditedNumberText
    ? ` This credit note cancels invoice ${extras.creditedNumberText}.`
    : "";
  note(
    credit
      ? `Refunded on ${day(row.issued_at)} to the original payment method.${cancels}`
      : `Paid on ${day(row.paid_at)} by card, through Stripe. Nothing is due.`,
    { bold: !credit, color: credit ? INK : "#047857" },
  );
  if (row.withdrawal_waiver) {
    y += 4;
    doc.font("bold").fontSize(9).fillColor(MUTED).text("RIGHT OF WITHDRAWAL", left, y, { width });
    y = doc.y + 3;
    note(
      `Before paying, the buyer agreed${row.withdrawal_waiver_at ? ` on ${day(row.withdrawal_waiver_at)}` : ""}: “${row.withdrawal_waiver}”`,
      { color: MUTED },
    );
  }

  // Footer: who sold it.
  const sellerName = row.seller.name ?? "The seller";
  doc
    .font("regular")
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(
      `${sellerName} is the seller of record for this sale and issued this ${title.toLowerCase()}. Sold via Flatfee.`,
      left,
      doc.page.height - doc.page.margins.bottom - 12,
      { width, align: "center", lineBreak: false, height: 12 },
    );
  doc.end();
  return doc as unknown as Readable;
}

type Doc = InstanceType<typeof import("pdfkit")>;

/** A party's block: its heading, name, business name, address, tax ID (and its VIES check), email. */
function partyBlock(
  doc: Doc,
  heading: string,
  party: InvoiceParty,
  x: number,
  y: number,
  width: number,
): number {
  doc.font("bold").fontSize(9).fillColor(MUTED).text(heading.toUpperCase(), x, y, { width });
  doc.moveDown(0.3);
  const primary = party.businessName && !party.name ? party.businessName : (party.name ?? party.email ?? "");
  doc.font("bold").fontSize(11).fillColor(INK).text(primary, x, doc.y, { width });
  doc.font("regular").fontSize(10).fillColor(INK);
  if (party.businessName && party.name) doc.text(party.businessName, x, doc.y, { width });
  for (const line of party.address) doc.text(line, x, doc.y, { width });
  if (party.taxId) {
    doc.text(`VAT ID: ${party.taxId}`, x, doc.y + 2, { width });
    if (party.taxIdCheckedAt) {
      doc
        .fontSize(8.5)
        .fillColor(MUTED)
        .text(`VAT number checked with VIES on ${day(party.taxIdCheckedAt)}`, x, doc.y, {
          width,
        });
      doc.fontSize(10).fillColor(INK);
    }
  }
  if (party.email && primary !== party.email) {
    doc.fillColor(MUTED).text(party.email, x, doc.y + 2, { width });
  }
  return doc.y;
}
