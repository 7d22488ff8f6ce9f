import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES, type StoreCurrencySettings } from "../../../contracts/currencies";
import {
  ADAPTIVE_PRICING_LABEL,
  adaptivePricingNote,
  StoreCurrencyForm,
  storeCurrencyChanges,
} from "./store-currency-card";

const settings = (fields: Partial<StoreCurrencySettings> = {}): StoreCurrencySettings => ({
  currency: "usd",
  locked: false,
  choices: [
    { code: "eur", name: "Euro" },
    { code: "jpy", name: "Japanese Yen" },
    { code: "usd", name: "US Dollar" },
  ],
  adaptivePricing: false,
  settlementCurrency: "usd",
  ...fields,
});

const render = (saved: StoreCurrencySettings) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <StoreCurrencyForm userId="seller_1" saved={saved} />
    </QueryClientProvider>,
  );

/** The opening tag of the store currency select. */
const selectTag = (html: string) => /<select[^>]*>/.exec(html)?.[0] ?? "";

describe("the settings page's Currency card", () => {
  it("offers every choice, the store currency selected, while the store has no sale", () => {
    const html = render(settings());
    expect(selectTag(html)).not.toContain('disabled=""');
    expect(html).toContain('<option value="eur">Euro (EUR)</option>');
    expect(html).toContain('<option value="jpy">Japanese Yen (JPY)</option>');
    expect(html).toMatch(/<option value="usd" selected="">US Dollar \(USD\)<\/option>/);
    expect(html).not.toContain(CURRENCY_MESSAGES.locked.replace("'", "&#x27;"));
  });

  it("disables the currency once the store has sold, and says why", () => {
    const html = render(settings({ locked: true, currency: "eur" }));
    expect(selectTag(html)).toContain('disabled=""');
    expect(html).toContain(CURRENCY_MESSAGES.locked.replace("'", "&#x27;"));
    expect(html).toMatch(/<option value="eur" selected="">/);
  });

  it("has the Adaptive Pricing switch, its note naming the store currency", () => {
    const off = render(settings({ currency: "eur" }));
    expect(off).toContain(ADAPTIVE_PRICING_LABEL);
    expect(off).toContain(adaptivePricingNote("eur").replace("'", "&#x27;"));
    expect(adaptivePricingNote("eur")).toContain("you receive your price in EUR.");
    // Memberships too: a member keeps paying in their currency (docs/money.md, "Adaptive Pricing").
    expect(adaptivePricingNote("eur")).toContain("members keep paying in their currency");
    expect(off).toMatch(/<input[^>]*role="switch"[^>]*aria-checked="false"/);
    expect(render(settings({ adaptivePricing: true }))).toMatch(
      /<input[^>]*role="switch"[^>]*aria-checked="true"[^>]*checked=""/,
    );
    // Nothing changed yet: nothing to save.
    expect(off).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Update currency<\/button>/);
  });

  it("sends only what changed, and never a locked currency", () => {
    const saved = settings();
    expect(storeCurrencyChanges(saved, { currency: "usd", adaptivePricing: false })).toEqual({});
    expect(storeCurrencyChanges(saved, { currency: "jpy", adaptivePricing: false })).toEqual({
      currency: "jpy",
    });
    expect(storeCurrencyChanges(saved, { currency: "usd", adaptivePricing: true })).toEqual({
      adaptivePricing: true,
    });
    expect(
      storeCurrencyChanges(settings({ locked: true }), { currency: "eur", adaptivePricing: true }),
    ).toEqual({ adaptivePricing: true });
  });
});
