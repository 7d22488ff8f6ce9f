import { renderToStaticMarkup } from "react-dom/server";
import { useForm } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { CURRENCY_MESSAGES, MAX_OTHER_PRICES } from "../../../contracts/currencies";
import { OtherPricesField } from "./other-prices-field";
import { PriceField } from "./price-field";
import { EMPTY_PRODUCT_FORM, type OtherPriceRow, type ProductFormValues } from "./product-form";
import { TierEditor } from "./tier-editor";
import { newTier } from "./tier-form";

function Pricing({ currency, flexible = false }: { currency: string; flexible?: boolean }) {
  const { register } = useForm<ProductFormValues>({ defaultValues: EMPTY_PRODUCT_FORM });
  return (
    <PriceField
      ids={{ price: "price", suggestedPrice: "suggested" }}
      currency={currency}
      register={register}
      flexible={flexible}
      editing={false}
      errors={{}}
      onChange={() => {}}
      disabled={false}
    />
  );
}

/** The opening tag of the input with this id. */
const inputTag = (html: string, id: string) =>
  new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? "";

describe("the product form's price in the store currency", () => {
  it("is in dollars with cents in a dollar store, as the spec says", () => {
    const html = renderToStaticMarkup(<Pricing currency="usd" flexible />);
    expect(html).toContain("Minimum price (USD)");
    expect(html).toContain("Suggested price (USD)");
    expect(html).toContain(">$</span>");
    expect(inputTag(html, "price")).toContain('step="0.01"');
    expect(inputTag(html, "price")).toContain('placeholder="0.00"');
    expect(html).toContain("Buyers pay this or more; $0 lets them get it free.");
    expect(html).toContain("(up to $10,000).");
  });

  it("is in whole yen in a yen store: no decimals, a yen example", () => {
    const html = renderToStaticMarkup(<Pricing currency="jpy" />);
    expect(html).toContain("Price (JPY)");
    expect(html).toContain(">¥</span>");
    const price = inputTag(html, "price");
    expect(price).toContain('step="1"');
    expect(price).toContain('inputMode="numeric"');
    expect(price).toContain('placeholder="2000"');
    expect(html).not.toContain("USD");
  });

  it("prices a membership's tiers in the store currency", () => {
    const html = renderToStaticMarkup(
      <TierEditor
        id="tiers"
        currency="eur"
        currencies={{ data: undefined, loadFailed: false }}
        tiers={[newTier()]}
        files={[]}
        editing={false}
        disabled={false}
        error={undefined}
        problem={undefined}
        onChange={() => {}}
      />,
    );
    expect(html).toContain("Monthly price (EUR)");
    expect(html).toContain(">€</span>");
    expect(html).not.toContain("USD");
  });

  it("gives each tier prices in other currencies, by the month and, with a yearly price, by the year", () => {
    const tier = (yearlyPrice: string) => ({
      ...newTier(),
      name: "Fan",
      monthlyPrice: "5",
      yearlyPrice,
      prices: [{ key: "p1", currency: "eur", price: "4.50", yearly: "45" }],
    });
    const render = (yearlyPrice: string) =>
      renderToStaticMarkup(
        <TierEditor
          id="tiers"
          currency="usd"
          currencies={{
            data: { choices: [{ code: "eur", name: "Euro" }], settlementCurrency: "usd" },
            loadFailed: false,
          }}
          tiers={[tier(yearlyPrice)]}
          files={[]}
          editing={false}
          disabled={false}
          error={undefined}
          problem={undefined}
          onChange={() => {}}
        />,
      );
    const yearly = render("50");
    expect(yearly).toContain("Prices in other currencies");
    expect(yearly).toContain("Monthly price in EUR");
    expect(yearly).toContain('value="4.50"');
    expect(yearly).toContain("Yearly price in EUR");
    expect(yearly).toContain('value="45"');
    const monthlyOnly = render("");
    expect(monthlyOnly).toContain("Monthly price in EUR");
    expect(monthlyOnly).not.toContain("Yearly price in EUR");
  });
});

describe("Prices in other currencies", () => {
  const choices = [
    { code: "eur", name: "Euro" },
    { code: "gbp", name: "British Pound" },
    { code: "jpy", name: "Japanese Yen" },
    { code: "usd", name: "US Dollar" },
  ];
  const rows: OtherPriceRow[] = [
    { key: "a", currency: "eur", price: "18.00" },
    { key: "b", currency: "jpy", price: "2500" },
  ];
  const render = (props: Partial<Parameters<typeof OtherPricesField>[0]> = {}) =>
    renderToStaticMarkup(
      <OtherPricesField
        id="prices"
        storeCurrency="usd"
        rows={rows}
        currencies={{ choices, settlementCurrency: "usd" }}
        error={undefined}
        errorIndex={undefined}
        disabled={false}
        onChange={() => {}}
        {...props}
      />,
    );
  /** The options of the select with this id. */
  const optionsOf = (html: string, id: string) =>
    [
      ...(new RegExp(`<select[^>]*id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? "").matchAll(
        /value="([a-z]+)"/g,
      ),
    ].map((match) => match[1]);

  it("shows each saved price in its currency, and explains who pays it", () => {
    const html = render();
    expect(html).toContain(
      "Buyers in these currencies see and pay this exact price; others pay in USD or, with Adaptive Pricing on, in their own currency at Stripe&#x27;s rate.",
    );
    expect(inputTag(html, "prices-a-price")).toContain('value="18.00"');
    expect(inputTag(html, "prices-b-price")).toContain('value="2500"');
    expect(inputTag(html, "prices-b-price")).toContain('step="1"');
    expect(html).toContain("Remove the price in EUR");
    // Each row offers its own currency and those no row has; never the store currency.
    expect(optionsOf(html, "prices-a-currency")).toEqual(["eur", "gbp"]);
    expect(optionsOf(html, "prices-b-currency")).toEqual(["jpy", "gbp"]);
    expect(html).toMatch(/<button[^>]*id="prices-add"(?![^>]*disabled)[^>]*>/);
  });

  it("marks the row a message is about", () => {
    const html = render({ error: CURRENCY_MESSAGES.invalidPrice("jpy"), errorIndex: 1 });
    expect(html).toContain(CURRENCY_MESSAGES.invalidPrice("jpy"));
    expect(inputTag(html, "prices-b-price")).toContain('aria-invalid="true"');
    expect(inputTag(html, "prices-a-price")).not.toContain("aria-invalid=");
  });

  it("adds nothing while the choices load, once full, or when Stripe pays out in another currency", () => {
    const addDisabled = (html: string) => /<button[^>]*id="prices-add"[^>]*disabled=""/.test(html);
    expect(addDisabled(render({ currencies: undefined }))).toBe(true);
    const full = Array.from({ length: MAX_OTHER_PRICES }, (_, index) => ({
      key: `k${index}`,
      currency: "eur",
      price: "1",
    }));
    const fullHtml = render({ rows: full });
    expect(addDisabled(fullHtml)).toBe(true);
    expect(fullHtml).toContain(`A product has at most ${MAX_OTHER_PRICES} prices in other currencies.`);
    const unsettled = render({ currencies: { choices, settlementCurrency: "eur" } });
    expect(addDisabled(unsettled)).toBe(true);
    expect(unsettled).toContain(CURRENCY_MESSAGES.otherPricesNeedSettlement("eur"));
  });
});
