import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatWholeMoney } from "../../contracts/money";
import { amountPlaceholder, currencySymbol } from "./money";
import { StoreCurrencyProvider, saveStoreCurrency, useMoney, useStoreCurrency } from "./store-currency";

function Amounts() {
  const money = useMoney();
  return (
    <p>
      {useStoreCurrency()}|{money(1999)}|{money(1800, "eur")}
    </p>
  );
}

const inStore = (currency: string) =>
  renderToStaticMarkup(
    <StoreCurrencyProvider currency={currency}>
      <Amounts />
    </StoreCurrencyProvider>,
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the store currency in the dashboard", () => {
  it("formats amounts in the store currency, or in the currency an amount is of", () => {
    expect(inStore("usd")).toBe("<p>usd|$19.99|€18.00</p>");
    expect(inStore("jpy")).toBe("<p>jpy|¥1,999|€18.00</p>");
    expect(inStore("gbp")).toBe("<p>gbp|£19.99|€18.00</p>");
  });

  it("is only known inside a dashboard page", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => renderToStaticMarkup(<Amounts />)).toThrow(/outside StoreCurrencyProvider/);
  });

  it("writes round amounts, symbols and example amounts per currency", () => {
    expect(formatWholeMoney(123456, "usd")).toBe("$1,235");
    expect(formatWholeMoney(1_000_000, "usd")).toBe("$10,000");
    expect(formatWholeMoney(0, "eur")).toBe("€0");
    expect(formatWholeMoney(1_000_000, "jpy")).toBe("¥1,000,000");
    expect(currencySymbol("usd")).toBe("$");
    expect(currencySymbol("eur")).toBe("€");
    expect(currencySymbol("jpy")).toBe("¥");
    expect(currencySymbol("cad")).toBe("CA$");
    expect(amountPlaceholder("19.99", "eur")).toBe("19.99");
    expect(amountPlaceholder("19.99", "jpy")).toBe("2000");
    expect(amountPlaceholder("19.99", "kwd")).toBe("19.990");
  });

  it("saves the settings with PUT /api/store-currency and takes the new settings back", async () => {
    const settings = {
      currency: "eur",
      locked: false,
      choices: [{ code: "eur", name: "Euro" }],
      adaptivePricing: true,
      settlementCurrency: "eur",
    };
    const calls: Array<{ url: string; method: string | undefined; body: unknown }> = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, method: init.method, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify(settings), { headers: { "content-type": "application/json" } });
      }),
    );
    await expect(saveStoreCurrency({ currency: "eur", adaptivePricing: true })).resolves.toEqual(settings);
    expect(calls).toEqual([
      { url: "/api/store-currency", method: "PUT", body: { currency: "eur", adaptivePricing: true } },
    ]);
  });
});
