import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { ProductPrice } from "../../../contracts/discounts";
import type { PublicProduct } from "../../../contracts/products";
import { StoreProductCard } from "../storefront/store-product-card";
import { listingPriceLabel } from "./membership-price";
import { ProductPage } from "./product-page";

const membershipProduct: PublicProduct = {
  id: "prod_studio",
  title: "The Studio",
  description: "Monthly lessons",
  priceCents: 500,
  priceMode: "fixed",
  suggestedPriceCents: null,
  inventoryType: "unlimited",
  quantityAvailable: null,
  fileSizeBytes: 1000,
  fileType: "application/pdf",
  fileCount: 2,
  coverImageUrl: null,
  coverThumbnailUrl: null,
  cover: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  kind: "membership",
  tiers: [
    {
      id: "tier_basic",
      name: "Basic",
      description: "The basics",
      monthlyPriceCents: 500,
      yearlyPriceCents: null,
      trialDays: 7,
      closed: false,
      fileIds: ["pf_1"],
      currency: "usd",
      prices: [],
    },
    {
      id: "tier_pro",
      name: "Pro",
      description: "Everything",
      monthlyPriceCents: 1250,
      yearlyPriceCents: 12000,
      trialDays: 0,
      closed: false,
      fileIds: ["pf_1", "pf_2"],
      currency: "usd",
      prices: [],
    },
  ],
  currency: "usd",
  prices: [],
  soldOut: false,
  purchasable: true,
  unavailableReason: null,
  seller: { id: "user_1", storeName: "Studio Store", pictureUrl: null, taxNote: null },
};

const render = (element: React.ReactElement) =>
  renderToStaticMarkup(<StaticRouter location="/product/prod_studio">{element}</StaticRouter>);

/** The forms of the markup, each as its opening tag and its content. */
function formsOf(markup: string): { tag: string; body: string }[] {
  return [...markup.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((match) => ({
    tag: match[1] ?? "",
    body: match[2] ?? "",
  }));
}

/** The inputs of some markup as `name=value` (radios with `:checked` when checked). */
function inputsOf(markup: string): string[] {
  return [...markup.matchAll(/<input\b([^>]*)\/?>/g)].map(([, attributes = ""]) => {
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];
    const checked = /\bchecked=""/.test(attributes) ? ":checked" : "";
    return `${attribute("type")} ${attribute("name")}=${attribute("value") ?? ""}${checked}`;
  });
}

const subscribeForms = (markup: string) =>
  formsOf(markup).filter((form) => form.tag.includes('action="/product/prod_studio/subscribe"'));

describe("a membership's product page", () => {
  it("offers each open tier with a Subscribe form posting its tier and billing period, and no Buy Now", () => {
    const markup = render(<ProductPage product={membershipProduct} />);
    const forms = subscribeForms(markup);
    expect(forms).toHaveLength(2);
    for (const form of forms) expect(form.tag).toContain('method="post"');
    const [basic, pro] = forms;
    // Each form posts the currency its tier's price is shown in (docs/money.md).
    expect(inputsOf(basic!.body)).toEqual([
      "hidden tierId=tier_basic",
      "hidden currency=usd",
      "hidden interval=month",
    ]);
    expect(inputsOf(pro!.body)).toEqual([
      "hidden tierId=tier_pro",
      "hidden currency=usd",
      "radio interval=month:checked",
      "radio interval=year",
    ]);
    expect(markup).not.toContain("/buy");
    expect(markup).not.toContain("Buy Now");
    expect(markup).not.toContain('name="amount"');
  });

  it("shows each tier's name, description, prices, trial and saving", () => {
    const markup = render(<ProductPage product={membershipProduct} />);
    const [basic, pro] = subscribeForms(markup);
    expect(basic!.body).toContain(">Basic</h3>");
    expect(basic!.body).toContain("The basics");
    expect(basic!.body).toMatch(/\$5\.00<\/span><span[^>]*>\/month/);
    expect(basic!.body).toContain("7-day free trial");
    expect(basic!.body).not.toContain("/year");
    expect(pro!.body).toMatch(/\$12\.50<\/span><span[^>]*>\/month/);
    expect(pro!.body).toMatch(/\$120\.00<\/span><span[^>]*>\/year/);
    expect(pro!.body).toContain("Save 20%");
    expect(pro!.body).not.toContain("free trial");
    // The radios are labelled, and the switch's stylesheet hooks are in place.
    expect(pro!.body).toContain(
      '<label for="tier-tier_pro-month" data-interval-label="month">Monthly</label>',
    );
    expect(pro!.body).toMatch(/<label for="tier-tier_pro-year" data-interval-label="year">Yearly/);
    expect(pro!.body).toContain('data-interval-price="year"');
    expect(pro!.body).toContain('class="membership-interval');
    expect(markup).toContain('Subscribe<span class="sr-only"> to Pro</span>');
    expect(markup).toContain("From $5.00/month");
  });

  it("carries the visit's source and the buyer's code in every Subscribe form, as Buy Now does", () => {
    const quote: ProductPrice = {
      productId: membershipProduct.id,
      originalPriceCents: 500,
      priceCents: 400,
      discountCents: 100,
      code: "FRIENDS",
      refusal: null,
    };
    const markup = render(
      <ProductPage
        product={membershipProduct}
        quote={quote}
        source={{ ref: "newsletter", utm_source: "mail" }}
      />,
    );
    for (const form of subscribeForms(markup)) {
      expect(inputsOf(form.body)).toEqual(
        expect.arrayContaining(["hidden code=FRIENDS", "hidden ref=newsletter", "hidden utm_source=mail"]),
      );
    }
    // The discount shown for a one-time price does not apply to tiers: no "$1.00 off" line.
    expect(markup).not.toContain("off</span>");
  });

  it("says why Subscribe is off, and why the last one was refused", () => {
    const markup = render(
      <ProductPage
        product={{ ...membershipProduct, purchasable: false, unavailableReason: "Not selling right now." }}
        answer={{ buyRefused: "This tier is not open to new members." }}
      />,
    );
    expect(markup).toContain("Not selling right now.");
    expect(markup).toContain('role="alert"');
    expect(markup).toContain("This tier is not open to new members.");
    for (const form of subscribeForms(markup)) expect(form.body).toMatch(/<button[^>]*disabled=""/);
  });

  it("offers the business fields in each tier's form once the store collects tax, and says + tax", () => {
    const taxed = { ...membershipProduct, seller: { ...membershipProduct.seller, taxNote: "+ tax" } };
    const markup = render(<ProductPage product={taxed} />);
    const forms = subscribeForms(markup);
    expect(forms).toHaveLength(2);
    for (const form of forms) {
      expect(inputsOf(form.body)).toEqual(expect.arrayContaining(["text businessName=", "text vatNumber="]));
    }
    // Each tier's fields have their own ids, so each label names its own field.
    expect(forms[0]!.body).toContain('id="tier-tier_basic-business-vat"');
    expect(forms[1]!.body).toContain('id="tier-tier_pro-business-vat"');
    expect(markup.replace(/<[^>]+>/g, "")).toContain("From $5.00/month+ tax");
    // A store not collecting tax asks for none of it.
    const untaxed = render(<ProductPage product={membershipProduct} />);
    expect(untaxed).not.toContain('name="vatNumber"');
    expect(untaxed).not.toContain("+ tax");
  });

  it("shows a membership's price on its store card by the month", () => {
    const textOf = (markup: string) => markup.replace(/<[^>]+>/g, "");
    const card = textOf(render(<StoreProductCard product={membershipProduct} />));
    expect(card).toContain("From $5.00/month");
    const oneTier = textOf(
      render(
        <StoreProductCard product={{ ...membershipProduct, tiers: membershipProduct.tiers.slice(1) }} />,
      ),
    );
    expect(oneTier).toContain("$12.50/month");
    expect(oneTier).not.toContain("From");
    expect(listingPriceLabel(membershipProduct)).toBe("From $5.00/month");
    // Closed tiers are not offered: the lowest open tier sets the price.
    expect(
      listingPriceLabel({
        ...membershipProduct,
        tiers: [{ ...membershipProduct.tiers[0]!, closed: true }, membershipProduct.tiers[1]!],
      }),
    ).toBe("$12.50/month");
    expect(listingPriceLabel({ ...membershipProduct, kind: "one_time" })).toBe("$5.00");
  });

  it("writes a product's prices in its own currency, on its page, its store card and the dashboard", () => {
    const textOf = (markup: string) => markup.replace(/<[^>]+>/g, "");
    const euros = {
      ...membershipProduct,
      currency: "eur",
      tiers: membershipProduct.tiers.map((tier) => ({ ...tier, currency: "eur" })),
    };
    expect(listingPriceLabel(euros)).toBe("From €5.00/month");
    expect(textOf(render(<StoreProductCard product={euros} />))).toContain("From €5.00/month");
    const page = textOf(render(<ProductPage product={euros} />));
    expect(page).toContain("€12.50");
    expect(page).not.toContain("$");
    const yen = {
      ...membershipProduct,
      kind: "one_time" as const,
      tiers: [],
      currency: "jpy",
      priceCents: 1500,
    };
    expect(listingPriceLabel(yen)).toBe("¥1,500");
    expect(listingPriceLabel({ ...yen, priceMode: "flexible" })).toBe("¥1,500+");
    const flexible = render(
      <ProductPage product={{ ...yen, priceMode: "flexible", suggestedPriceCents: 2000 }} />,
    );
    // The amount field starts at the suggestion in whole yen.
    expect(flexible).toMatch(/<input[^>]*name="amount"[^>]*value="2000"/);
    expect(textOf(flexible)).toContain("¥1,500+");
  });
});
