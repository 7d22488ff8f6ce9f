import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Storefront } from "../../../contracts/products";
import { TAX_PRICE_NOTES } from "../../../contracts/tax";
import { StorePage } from "./store-page";

type StoreProduct = Storefront["products"][number];

const product = (id: string, title: string, changes: Partial<StoreProduct> = {}): StoreProduct => ({
  id,
  title,
  description: "",
  priceCents: 1999,
  priceMode: "fixed",
  suggestedPriceCents: null,
  inventoryType: "unlimited",
  quantityAvailable: null,
  fileSizeBytes: 1000,
  fileType: "application/pdf",
  fileCount: 1,
  coverImageUrl: null,
  coverThumbnailUrl: null,
  cover: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  kind: "one_time",
  tiers: [],
  currency: "usd",
  prices: [],
  soldOut: false,
  purchasable: true,
  unavailableReason: null,
  ...changes,
});

const store = (taxNote: string | null): Storefront => ({
  seller: {
    id: "user_1",
    storeName: "Tax Store",
    pictureUrl: null,
    taxNote,
    tagline: null,
    description: null,
  },
  products: [
    product("prod_guide", "The Guide"),
    product("prod_brushes", "Free Brushes", { priceCents: 0 }),
    product("prod_pwyw", "Pay What You Want", { priceMode: "flexible", priceCents: 500 }),
    product("prod_club", "The Club", {
      kind: "membership",
      priceCents: 500,
      tiers: [
        {
          id: "tier_fan",
          name: "Fan",
          description: "",
          monthlyPriceCents: 500,
          yearlyPriceCents: null,
          trialDays: 0,
          closed: false,
          fileIds: [],
          currency: "usd",
          prices: [],
        },
      ],
    }),
  ],
});

/** Each card's price paragraph as text, by the card's title. */
function cardPrices(markup: string): Record<string, string> {
  const cards = [...markup.matchAll(/<li\b[^>]*>([\s\S]*?)<\/li>/g)]
    .map((match) => match[1] ?? "")
    .filter((item) => item.includes("View Details"));
  return Object.fromEntries(
    cards.map((card) => {
      const title = /<h2[^>]*>([^<]*)<\/h2>/.exec(card)?.[1] ?? "";
      const price = /<p class="[^"]*text-lg[^"]*">([\s\S]*?)<\/p>/.exec(card)?.[1] ?? "";
      return [title, price.replace(/<[^>]+>/g, "")];
    }),
  );
}

const render = (storefront: Storefront) =>
  renderToStaticMarkup(
    <StaticRouter location="/store/user_1">
      <StorePage store={storefront} />
    </StaticRouter>,
  );

describe("the store page's cards", () => {
  it("say '+ tax' with each price above zero when the store adds tax, read with the price", () => {
    expect(cardPrices(render(store(TAX_PRICE_NOTES.exclusive)))).toEqual({
      "The Guide": "$19.99 + tax",
      "Free Brushes": "Free",
      "Pay What You Want": "$5.00+ + tax",
      // A membership's Checkout collects tax too (docs/tax-and-invoices.md, Memberships).
      "The Club": "$5.00/month + tax",
    });
  });

  it("say 'incl. VAT where applicable' when prices include it, and nothing when the store doesn't collect", () => {
    expect(cardPrices(render(store(TAX_PRICE_NOTES.inclusive)))["The Guide"]).toBe(
      "$19.99 incl. VAT where applicable",
    );
    const untaxed = render(store(null));
    expect(cardPrices(untaxed)["The Guide"]).toBe("$19.99");
    expect(untaxed).not.toContain(TAX_PRICE_NOTES.exclusive);
  });
});
