import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MembershipMetrics, SellerAnalytics } from "../../../contracts/analytics";
import { StoreCurrencyProvider } from "../../lib/store-currency";
import { membershipFigures } from "./analytics-format";
import { MembershipTotals } from "./membership-totals";

const inStore = (element: React.ReactElement, currency = "usd") =>
  renderToStaticMarkup(<StoreCurrencyProvider currency={currency}>{element}</StoreCurrencyProvider>);

const metrics: MembershipMetrics = {
  mrrCents: 2000 + 2000 + 500 + Math.round(5000 / 12),
  payingMembers: 4,
  trialingMembers: 2,
  newMembers: 1234,
  churnedMembers: 1,
  renewalRevenueCents: 2000,
};

const analytics = (memberships: MembershipMetrics | null, period: SellerAnalytics["period"] = "30d") =>
  ({
    period,
    productId: null,
    from: "2026-03-01",
    to: "2026-03-30",
    bucket: "day",
    series: [],
    totals: { revenueCents: 0, units: 0, productViews: 0, storeViews: 0, conversionRate: null },
    previous: null,
    products: [],
    recovered: { revenueCents: 0, units: 0, previousRevenueCents: null },
    memberships,
    sources: [],
  }) satisfies SellerAnalytics;

describe("the analytics page's memberships", () => {
  it("shows MRR and paying members now, new, churned and renewals in the period", () => {
    expect(membershipFigures(metrics, "Last 30 days", "usd")).toEqual([
      { title: "MRR", value: "$49.17", detail: null, note: "Now" },
      { title: "Paying members", value: "4", detail: "+ 2 on trial", note: "Now" },
      { title: "New members", value: "1,234", detail: null, note: "Last 30 days" },
      { title: "Churned", value: "1", detail: null, note: "Last 30 days" },
      { title: "Renewal revenue", value: "$20.00", detail: null, note: "Last 30 days" },
    ]);
    expect(membershipFigures({ ...metrics, trialingMembers: 0 }, "All time", "usd")[1]).toEqual({
      title: "Paying members",
      value: "4",
      detail: null,
      note: "Now",
    });
  });

  it("draws a Memberships section of cards, and nothing for a seller who never had a member", () => {
    const html = inStore(<MembershipTotals data={analytics(metrics, "7d")} />);
    expect(html).toContain(">Memberships</h2>");
    expect(html.match(/role="group"/g)).toHaveLength(5);
    expect(html).toMatch(/aria-label="MRR".*\$49\.17.*Now/);
    expect(html).toMatch(/aria-label="Paying members".*>4<span[^>]*>\+ 2 on trial<\/span>/);
    expect(html).toMatch(/aria-label="Renewal revenue".*\$20\.00.*Last 7 days/);
    expect(inStore(<MembershipTotals data={analytics(null)} />)).toBe("");
  });

  it("counts MRR and renewals in the store currency", () => {
    expect(membershipFigures(metrics, "Now", "eur")[0]?.value).toBe("€49.17");
    const html = inStore(<MembershipTotals data={analytics({ ...metrics, mrrCents: 4917 })} />, "jpy");
    expect(html).toMatch(/aria-label="MRR".*¥4,917/);
  });
});
