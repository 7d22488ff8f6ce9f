import { describe, expect, it } from "vitest";
import { downloadButtonLabel, downloadsLeftSummary, downloadTerms } from "../../../contracts/download-terms";
import { LOCALES } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import { taxLabel, WITHDRAWAL_WAIVER_TEXT } from "../../../contracts/tax";
import { withdrawalWaiverText } from "../../features/tax";
import { downloadButtonIn, downloadsLeftIn, downloadTermsIn, taxLabelIn, taxLineIn } from "./buyer-words";
import { renderEmail } from "./layout";

const english = translator("en");
const TAXES = [
  {
    taxCents: 190,
    taxRate: "19",
    taxType: "vat",
    taxJurisdiction: "DE",
    taxabilityReason: "standard_rated",
    reverseCharge: false,
  },
  {
    taxCents: 89,
    taxRate: "8.875",
    taxType: "sales_tax",
    taxJurisdiction: "NEW YORK",
    taxabilityReason: "standard_rated",
    reverseCharge: false,
  },
  {
    taxCents: 50,
    taxRate: "5",
    taxType: "gst",
    taxJurisdiction: null,
    taxabilityReason: "standard_rated",
    reverseCharge: false,
  },
  {
    taxCents: 50,
    taxRate: null,
    taxType: null,
    taxJurisdiction: null,
    taxabilityReason: "standard_rated",
    reverseCharge: false,
  },
  {
    taxCents: 0,
    taxRate: "0",
    taxType: "vat",
    taxJurisdiction: "FR",
    taxabilityReason: "reverse_charge",
    reverseCharge: true,
  },
  {
    taxCents: 0,
    taxRate: null,
    taxType: null,
    taxJurisdiction: null,
    taxabilityReason: "not_collecting",
    reverseCharge: false,
  },
  {
    taxCents: 0,
    taxRate: null,
    taxType: null,
    taxJurisdiction: null,
    taxabilityReason: "customer_exempt",
    reverseCharge: false,
  },
  {
    taxCents: 0,
    taxRate: null,
    taxType: null,
    taxJurisdiction: null,
    taxabilityReason: null,
    reverseCharge: false,
  },
];

describe("the words of buyers' emails", () => {
  it("say in English exactly what the spec's shared texts say", () => {
    for (const tax of TAXES) expect(taxLabelIn(english, tax)).toBe(taxLabel(tax));
    expect(taxLineIn(english, TAXES[0]!, "usd")).toBe(
      "Tax: $1.90 (VAT 19% (DE)), included in the amount paid.",
    );
    const day = new Date("2026-11-22T15:00:00Z");
    expect(downloadTermsIn(english, day)).toBe(downloadTerms(day));
    for (const files of [
      [{ downloadsRemaining: 2 }],
      [{ downloadsRemaining: 3 }, { downloadsRemaining: 1 }],
    ]) {
      expect(downloadsLeftIn(english, files)).toBe(downloadsLeftSummary(files));
    }
    for (const count of [0, 1, 2, 7])
      expect(downloadButtonIn(english, count)).toBe(downloadButtonLabel(count));
    expect(withdrawalWaiverText("en")).toBe(WITHDRAWAL_WAIVER_TEXT);
  });

  it("say it in the buyer's language, with its own numbers and days", () => {
    const german = translator("de");
    expect(taxLabelIn(german, TAXES[0]!)).toBe("MwSt. 19 % (DE)");
    expect(taxLineIn(german, TAXES[0]!, "usd")?.replace(/\u00a0/g, " ")).toBe(
      "Steuer: 1,90 $ (MwSt. 19 % (DE)), im gezahlten Betrag enthalten.",
    );
    expect(taxLineIn(german, TAXES[0]!, "eur")?.replace(/\u00a0/g, " ")).toBe(
      "Steuer: 1,90 € (MwSt. 19 % (DE)), im gezahlten Betrag enthalten.",
    );
    expect(taxLabelIn(translator("fr"), TAXES[4]!)).toBe("Autoliquidation");
    expect(downloadTermsIn(translator("ja"), new Date("2026-11-22T15:00:00Z"))).toBe(
      "各ダウンロードリンクの有効期限は24時間です。各ファイルは2026/11/22まで最大3回ダウンロードできます。",
    );
    expect(downloadButtonIn(translator("es"), 3)).toBe("Descarga tus 3 archivos");
    // Each language's waiver is its own (never English copied).
    const waivers = new Set(LOCALES.map(withdrawalWaiverText));
    expect(waivers.size).toBe(LOCALES.length);
  });

  it("lay an email out in its reader's language: <html lang>, the link's hint and the footer", () => {
    const content = {
      preheader: "p",
      heading: "h",
      paragraphs: ["x"],
      button: { label: "b", url: "https://a.io/d" },
    };
    const englishEmail = renderEmail(content);
    expect(englishEmail.html).toContain('<html lang="en">');
    expect(englishEmail.html).toContain("Or paste this link into your browser: https://a.io/d");
    expect(englishEmail.text.split("\n").at(-1)).toBe(
      "Flatfee: sell digital products for a flat $10/month. We take 0% of sales.",
    );
    const japanese = renderEmail({ ...content, locale: "ja" });
    expect(japanese.html).toContain('<html lang="ja">');
    expect(japanese.html).toContain("または、このリンクをブラウザに貼り付けてください：https://a.io/d");
    expect(japanese.text.split("\n").at(-1)).toBe(
      "Flatfee：月額10ドルの定額でデジタル商品を販売。売上の手数料は0%です。",
    );
  });
});
