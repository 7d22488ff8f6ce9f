import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { translator } from "../../contracts/i18n/translator";
import { UNAVAILABLE_TITLE_KEYS, UNAVAILABLE_TITLES } from "../features/downloads/unavailable-reason";
import { localMembershipPriceLabel, membershipPriceLabel } from "../features/products/membership-price";
import { savingLabel, trialLabel } from "../features/products/membership-tiers";
import { SOLD_OUT_BADGE, stockNotice, storeCardBadge } from "../features/products/stock";
import { I18nProvider, useServerText } from "./i18n";

const english = translator("en");

describe("the pages' English words, where web code had them", () => {
  it("are the catalogue's English", () => {
    const limited = (quantityAvailable: number) => ({
      inventoryType: "limited" as const,
      quantityAvailable,
      soldOut: false,
    });
    expect(english.t("purchase.stockLeft", { count: 4 })).toBe(stockNotice(limited(4)));
    expect(english.t("store.left", { count: 2 })).toBe(storeCardBadge(limited(2))?.label);
    expect(english.t("purchase.soldOutBadge")).toBe(SOLD_OUT_BADGE);
    expect(english.t("membership.trial", { days: 7 })).toBe(trialLabel(7));
    expect(english.t("membership.save", { percent: 16 })).toBe(
      savingLabel({ monthlyPriceCents: 1000, yearlyPriceCents: 10_080 }),
    );
    for (const [kind, key] of Object.entries(UNAVAILABLE_TITLE_KEYS)) {
      expect(english.t(key)).toBe(UNAVAILABLE_TITLES[kind as keyof typeof UNAVAILABLE_TITLES]);
    }
    for (const open of [1, 2]) {
      const tiers = [500, 900]
        .slice(0, open)
        .map((monthlyPriceCents) => ({ monthlyPriceCents, closed: false }));
      const product = { priceCents: 500, currency: "usd", tiers };
      expect(localMembershipPriceLabel(english, product)).toBe(membershipPriceLabel(product));
    }
  });
});

function Refusal({ text }: { text: string }) {
  return <p>{useServerText()(text)}</p>;
}

describe("useServerText", () => {
  it("says a server's message in the page's language, and leaves it as it is in English", () => {
    const text = "This discount code has expired.";
    expect(renderToString(<Refusal text={text} />)).toBe(`<p>${text}</p>`);
    expect(
      renderToString(
        <I18nProvider value={translator("es")}>
          <Refusal text={text} />
        </I18nProvider>,
      ),
    ).toBe("<p>Este código de descuento ha caducado.</p>");
  });
});
