import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Sale } from "../../../contracts/orders";
import { saleAmountLabel, salePeriodLabel, saleSettlementLabel } from "./sale-format";
import { SalesCards, SalesTable } from "./sales-list";

const local = (year: number, month: number, day: number) =>
  new Date(year, month - 1, day, 10, 30).toISOString();

const sale = (fields: Partial<Sale> = {}): Sale => ({
  id: "ord_1",
  customerEmail: "member@example.com",
  productTitle: "The Club",
  amountCents: 500,
  currency: "usd",
  settlementCents: 500,
  settlementCurrency: "usd",
  createdAt: local(2026, 3, 1),
  status: "completed",
  downloadsUsed: 0,
  downloadsAllowed: 3,
  discountCode: null,
  discountCents: 0,
  license: null,
  periodStart: local(2026, 3, 1),
  periodEnd: local(2026, 4, 1),
  tax: null,
  dispute: null,
  importedFrom: null,
  ...fields,
});

describe("a membership sale's period", () => {
  it("reads in the table's date format, the year once when both ends share it", () => {
    expect(salePeriodLabel(sale())).toBe("Membership period Mar 01 – Apr 01, 2026");
    expect(salePeriodLabel(sale({ periodStart: local(2025, 12, 15), periodEnd: local(2026, 12, 15) }))).toBe(
      "Membership period Dec 15, 2025 – Dec 15, 2026",
    );
    expect(salePeriodLabel(sale({ periodStart: null, periodEnd: null }))).toBeNull();
  });

  it("shows under the product title in the table and on the phone cards; not for a one-time sale", () => {
    const props = { userId: "seller_1", onRefund: () => {} };
    for (const List of [SalesTable, SalesCards]) {
      const render = (sales: Sale[]) =>
        renderToStaticMarkup(
          <QueryClientProvider client={new QueryClient()}>
            <List {...props} sales={sales} />
          </QueryClientProvider>,
        );
      expect(render([sale()])).toMatch(/The Club<\/p><p[^>]*>Membership period Mar 01 – Apr 01, 2026<\/p>/);
      expect(render([sale({ periodStart: null, periodEnd: null })])).not.toContain("Membership period");
    }
  });
});

describe("a taxed sale", () => {
  const render = (element: React.ReactElement) =>
    renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{element}</QueryClientProvider>);
  const taxed = sale({
    amountCents: 2380,
    periodStart: null,
    periodEnd: null,
    tax: {
      taxCents: 380,
      taxBehavior: "exclusive",
      taxRate: "19",
      taxType: "vat",
      taxJurisdiction: "DE",
      taxabilityReason: "standard_rated",
      buyerCountry: "DE",
      buyerState: null,
      reverseCharge: false,
    },
  });
  it("shows the tax inside the amount, in the table and on phones", () => {
    for (const html of [
      render(<SalesTable userId="u1" sales={[taxed]} onRefund={() => {}} />),
      render(<SalesCards userId="u1" sales={[taxed]} onRefund={() => {}} />),
    ]) {
      expect(html).toContain("incl. $3.80 · VAT 19% (DE)");
    }
    const reverse = sale({
      tax: {
        ...taxed.tax!,
        taxCents: 0,
        taxRate: "0",
        reverseCharge: true,
        taxabilityReason: "reverse_charge",
      },
    });
    expect(render(<SalesTable userId="u1" sales={[reverse]} onRefund={() => {}} />)).toContain(
      "Reverse charge",
    );
  });
});

describe("a sale paid in another currency than the store's", () => {
  const render = (element: React.ReactElement) =>
    renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{element}</QueryClientProvider>);
  const euros = sale({
    amountCents: 1800,
    currency: "eur",
    settlementCents: 1957,
    settlementCurrency: "usd",
    periodStart: null,
    periodEnd: null,
    discountCode: "SPRING",
    discountCents: 200,
    tax: {
      taxCents: 287,
      taxBehavior: "inclusive",
      taxRate: "19",
      taxType: "vat",
      taxJurisdiction: "DE",
      taxabilityReason: "standard_rated",
      buyerCountry: "DE",
      buyerState: null,
      reverseCharge: false,
    },
  });

  it("shows what the buyer paid in their currency and what it settled as in the store currency", () => {
    expect(saleAmountLabel(euros)).toBe("€18.00");
    expect(saleSettlementLabel(euros)).toBe("settled $19.57");
    const table = render(<SalesTable userId="u1" sales={[euros]} onRefund={() => {}} />);
    expect(table).toMatch(/>€18\.00<span[^>]*>settled \$19\.57<\/span>/);
    const cards = render(<SalesCards userId="u1" sales={[euros]} onRefund={() => {}} />);
    expect(cards).toContain("€18.00");
    expect(cards).toContain("settled $19.57");
    // The tax and the code's saving are amounts of what the buyer paid.
    for (const html of [table, cards]) {
      expect(html).toContain("incl. €2.87 · VAT 19% (DE)");
      expect(html).toContain("−€2.00");
      expect(html).not.toContain("$18.00");
    }
  });

  it("says nothing of settlement when the buyer paid in the store currency; a yen sale has no decimals", () => {
    expect(saleSettlementLabel(sale())).toBeNull();
    expect(render(<SalesTable userId="u1" sales={[sale()]} onRefund={() => {}} />)).not.toContain("settled");
    const yen = sale({
      amountCents: 1500,
      currency: "jpy",
      settlementCents: 1500,
      settlementCurrency: "jpy",
    });
    expect(saleAmountLabel(yen)).toBe("¥1,500");
    expect(saleSettlementLabel(yen)).toBeNull();
  });
});
