import { describe, expect, it } from "vitest";
import { localeFromAcceptLanguage, negotiateLocale, supportedLocale } from "./locales";

describe("choosing a buyer's language", () => {
  it("maps language tags to the languages we speak", () => {
    expect(
      ["de-DE", "de-AT", "DE", "ja-JP", "pt", "pt-PT", "pt_br", "fr-CA", "es-419", "en-GB"].map(
        supportedLocale,
      ),
    ).toEqual(["de", "de", "de", "ja", "pt-BR", "pt-BR", "pt-BR", "fr", "es", "en"]);
    expect(["it", "zh-Hans", "", "de;DROP", "x".repeat(40)].map(supportedLocale)).toEqual(
      Array(5).fill(undefined),
    );
  });

  it("reads Accept-Language by quality, skipping what we don't speak and what is refused", () => {
    expect(localeFromAcceptLanguage("de-DE,de;q=0.9,en;q=0.8")).toBe("de");
    expect(localeFromAcceptLanguage("it-IT,it;q=0.9,fr;q=0.7,en;q=0.8")).toBe("en");
    expect(localeFromAcceptLanguage("ja;q=0, es")).toBe("es");
    expect(localeFromAcceptLanguage("*")).toBeUndefined();
    expect(localeFromAcceptLanguage(undefined)).toBeUndefined();
  });

  it("prefers the switcher's choice, then the remembered one, then the browser's, then English", () => {
    expect(negotiateLocale({ param: "fr", cookie: "de", acceptLanguage: "ja" })).toBe("fr");
    expect(negotiateLocale({ param: "xx", cookie: "de", acceptLanguage: "ja" })).toBe("de");
    expect(negotiateLocale({ acceptLanguage: "ja-JP,ja;q=0.9" })).toBe("ja");
    expect(negotiateLocale({ acceptLanguage: "it" })).toBe("en");
    expect(negotiateLocale({})).toBe("en");
  });
});
