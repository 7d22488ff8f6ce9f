import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales";
import { AREAS, CATALOGUES, type MessageKey, translator } from "./translator";

// The shape of a parsed message, as @formatjs/icu-messageformat-parser types its elements.
interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}
const ARGUMENT_TYPES = new Set([1, 2, 3, 4, 5, 6]); // argument, number, date, time, select, plural
const PLURAL = 6;
const TAG = 8;

/** A message's arguments and tags ("count", "<b>"), and whether each plural has its `other` case. */
function shapeOf(message: string, locale: string) {
  const names = new Set<string>();
  const problems: string[] = [];
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (ARGUMENT_TYPES.has(element.type) && element.value) names.add(element.value);
      if (element.type === TAG && element.value) names.add(`<${element.value}>`);
      if (element.type === PLURAL && !element.options?.other)
        problems.push(`plural ${element.value} lacks other`);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst() as unknown as Element[]);
  return { names: [...names].sort(), problems };
}

describe("message catalogues", () => {
  const reference = Object.keys(CATALOGUES.en).sort();

  it("names each message in one area only", () => {
    const areasOf = new Map<string, string[]>();
    for (const [area, catalogues] of Object.entries(AREAS)) {
      for (const key of Object.keys(catalogues.en)) areasOf.set(key, [...(areasOf.get(key) ?? []), area]);
    }
    expect([...areasOf].filter(([, areas]) => areas.length > 1)).toEqual([]);
  });

  it.each(LOCALES)("%s has every key of English's and no other", (locale) => {
    const keys = Object.keys(CATALOGUES[locale]).sort();
    expect(
      reference.filter((key) => !keys.includes(key)),
      "missing",
    ).toEqual([]);
    expect(
      keys.filter((key) => !reference.includes(key)),
      "unknown",
    ).toEqual([]);
    for (const key of keys) expect(CATALOGUES[locale][key as MessageKey].trim(), key).not.toBe("");
  });

  it.each(LOCALES)(
    "%s's messages parse, with English's arguments and tags and an `other` in every plural",
    (locale) => {
      for (const key of reference as MessageKey[]) {
        const english = shapeOf(CATALOGUES.en[key], "en");
        const translated = shapeOf(CATALOGUES[locale][key], locale);
        expect(translated.problems, `${locale} ${key}`).toEqual([]);
        expect(translated.names, `${locale} ${key}`).toEqual(english.names);
      }
    },
  );

  it("formats plurals, money and dates for each language", () => {
    expect(translator("en").t("common.files", { count: 1 })).toBe("1 file");
    expect(translator("en").t("common.files", { count: 3 })).toBe("3 files");
    expect(translator("de").t("common.files", { count: 3 })).toBe("3 Dateien");
    expect(translator("fr").t("common.files", { count: 0 })).toBe("0 fichier");
    expect(translator("ja").t("common.files", { count: 2 })).toBe("2個のファイル");
    expect(
      translator("de")
        .money(1800, "eur")
        .replace(/\u00a0/g, " "),
    ).toBe("18,00 €");
    expect(translator("ja").money(1500, "jpy")).toBe("￥1,500");
    const day = new Date(Date.UTC(2026, 10, 27, 23, 30));
    expect(translator("en").date(day)).toBe("Nov 27, 2026");
    expect(translator("de").date(day)).toBe("27.11.2026");
    expect(translator("ja").date(day)).toBe("2026/11/27");
  });

  it("renders a tag's content through the page's renderer", () => {
    const parts = translator("de").rich("footer.poweredBy", { b: (chunks) => `[${chunks.join("")}]` });
    expect(Array.isArray(parts) ? parts.join("") : parts).toBe("Bereitgestellt von [Flatfee]");
  });
});
