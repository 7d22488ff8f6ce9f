import { describe, expect, it } from "vitest";
import {
  DOWNLOAD_LINK_TERM,
  downloadAllowance,
  downloadsLeftLabel,
  filesIncludedLabel,
} from "../download-terms";
import { INVOICE_MESSAGES } from "../invoices";
import { ORDER_MESSAGES } from "../orders";
import {
  amountBelowMinimumMessage,
  FREE_CLAIM_MESSAGES,
  PAY_WHAT_YOU_WANT_MESSAGES,
  payWhatYouWantMessages,
  priceLabel,
  STORE_FALLBACK_NAME,
} from "../products";
import { TAX_PRICE_NOTES } from "../tax";
import { BUYER_MESSAGES, translateMessage } from "./buyer-messages";
import { LOCALES } from "./locales";
import { CATALOGUES, translator } from "./translator";

const english = translator("en");

describe("the server's words on buyers' pages", () => {
  it("English's catalogue says each exactly as its constant does", () => {
    for (const [text, render] of BUYER_MESSAGES) expect(render(english)).toBe(text);
  });

  it("is shown as is in English, and translated in every other language", () => {
    for (const locale of LOCALES.filter((locale) => locale !== "en")) {
      const i18n = translator(locale);
      for (const [text] of BUYER_MESSAGES) {
        expect(translateMessage(english, text)).toBe(text);
        expect(translateMessage(i18n, text), `${locale}: ${text}`).not.toBe(text);
      }
    }
  });

  it("says the amount of a pay-what-you-want minimum as the language writes it", () => {
    const text = amountBelowMinimumMessage(123_456);
    expect(translateMessage(english, text)).toBe("Please pay at least $1,234.56.");
    expect(translateMessage(translator("de"), text).replace(/\u00a0/g, " ")).toBe(
      "Bitte zahlen Sie mindestens 1.234,56 $.",
    );
    // In any of our currencies: euros as German writes them, yen without decimals.
    const euros = amountBelowMinimumMessage(500, "eur");
    expect(euros).toBe("Please pay at least €5.00.");
    expect(translateMessage(translator("de"), euros).replace(/\u00a0/g, " ")).toBe(
      "Bitte zahlen Sie mindestens 5,00 €.",
    );
    expect(translateMessage(translator("ja"), amountBelowMinimumMessage(1500, "jpy"))).toBe(
      "￥1,500以上をお支払いください。",
    );
  });

  it("words a pay-what-you-want refusal in the price's currency", () => {
    expect(payWhatYouWantMessages("usd")).toBe(PAY_WHAT_YOU_WANT_MESSAGES);
    const yen = payWhatYouWantMessages("jpy");
    expect(yen).toEqual({
      amountInvalid: "Enter an amount in JPY, like ¥1,500.",
      amountTooHigh: "The most you can pay is ¥1,000,000.",
      amountBelowCardMinimum: "Card payments start at ¥50: enter ¥50 or more, or 0 to get it free.",
    });
    expect(
      translateMessage(translator("de"), payWhatYouWantMessages("eur").amountBelowCardMinimum).replace(
        /\u00a0/g,
        " ",
      ),
    ).toBe(
      "Kartenzahlungen sind ab 0,50 € möglich: Geben Sie 0,50 € oder mehr ein, oder 0, um es kostenlos zu erhalten.",
    );
  });

  it("names the billing field a length refusal is about", () => {
    const french = translateMessage(translator("fr"), INVOICE_MESSAGES.tooLong("City", 100));
    expect(french.replace(/\u00a0/g, " ")).toBe("« Ville » doit faire au maximum 100 caractères.");
  });

  it("leaves a text it does not know as it is", () => {
    expect(translateMessage(translator("ja"), "Something new")).toBe("Something new");
  });
});

describe("the pages' English catalogue", () => {
  const t = english.t;

  it("keeps the spec's words of the contracts' constants", () => {
    expect(t("terms.linkExpires", { hours: 24 })).toBe(DOWNLOAD_LINK_TERM);
    expect(t("terms.allowanceWithin", { max: 3, days: 30 })).toBe(downloadAllowance());
    expect(t("terms.allowanceUntil", { max: 3, date: english.date(new Date("2026-11-22T12:00:00Z")) })).toBe(
      downloadAllowance("2026-11-22T12:00:00Z"),
    );
    for (const remaining of [0, 1, 3]) {
      expect(t("download.downloadsLeft", { remaining, max: 3 })).toBe(downloadsLeftLabel(remaining));
    }
    for (const count of [2, 12])
      expect(t("purchase.filesIncluded", { count })).toBe(filesIncludedLabel(count));
    expect(t("free.sentTitle")).toBe(FREE_CLAIM_MESSAGES.checkEmailTitle);
    expect(t("free.sent", { email: "a@b.co" })).toBe(FREE_CLAIM_MESSAGES.sent("a@b.co"));
    expect(t("message.refunded")).toBe(ORDER_MESSAGES.refunded);
    expect(t("store.fallbackName")).toBe(STORE_FALLBACK_NAME);
    expect(t("tax.exclusive")).toBe(TAX_PRICE_NOTES.exclusive);
    expect(t("price.free")).toBe(priceLabel({ priceMode: "fixed", priceCents: 0 }));
    expect(t("price.flexible", { price: english.money(500, "usd") })).toBe(
      priceLabel({ priceMode: "flexible", priceCents: 500 }),
    );
  });

  it("is a real translation in the other languages, not English copied", () => {
    // Words that are the same in a language as in English, each checked: German says "Name" too.
    const same = new Set(["de billing.noun.name"]);
    const copied: string[] = [];
    for (const locale of LOCALES.filter((locale) => locale !== "en")) {
      for (const [key, text] of Object.entries(CATALOGUES.en)) {
        const translated = CATALOGUES[locale][key as keyof typeof CATALOGUES.en];
        // Words only: a message that is its arguments and punctuation ("{label}: {url}") reads the same.
        const words = text.replace(/\{[^{}]*\}/g, "");
        if (translated === text && /[a-z]{3}/i.test(words) && !same.has(`${locale} ${key}`)) {
          copied.push(`${locale} ${key}`);
        }
      }
    }
    expect(copied).toEqual([]);
  });
});
