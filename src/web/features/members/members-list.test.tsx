import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Member } from "../../../contracts/memberships";
import { StoreCurrencyProvider } from "../../lib/store-currency";
import type { MemberActionHandlers } from "./member-actions";
import { MemberCards, MembersTable } from "./members-list";

const member = (overrides: Partial<Member> = {}): Member => ({
  id: "mem_1",
  email: "ada@example.com",
  productId: "p1",
  productTitle: "Members Only",
  tierName: "Fan",
  interval: "year",
  amountCents: 5000,
  currency: "usd",
  status: "canceling",
  statusLabel: "Canceled at period end",
  startedAt: new Date(2026, 2, 3, 14, 5).toISOString(),
  currentPeriodEnd: new Date(2027, 2, 3, 14, 5).toISOString(),
  endedAt: null,
  lifetimeSpendCents: 12345,
  hasAccess: true,
  ...overrides,
});

const handlers: MemberActionHandlers = {
  cancelAtPeriodEnd: () => {},
  openDialog: () => {},
  busyId: null,
  triggerRef: () => () => {},
};

/** Rendered in a store selling in `currency`, as the seller gate provides it. */
const inStore = (element: React.ReactElement, currency = "usd") =>
  renderToStaticMarkup(<StoreCurrencyProvider currency={currency}>{element}</StoreCurrencyProvider>);

/** The markup's text, tags dropped, as a reader meets it. */
const textOf = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ")
    .trim();

describe("the members list", () => {
  for (const [name, List] of [
    ["table", MembersTable],
    ["cards", MemberCards],
  ] as const) {
    it(`(${name}) shows a member's plan, status, dates and spend, with a named actions button`, () => {
      const markup = inStore(<List members={[member()]} handlers={handlers} />);
      const text = textOf(markup);
      for (const part of [
        "ada@example.com",
        "Members Only · Fan",
        "$50.00",
        "Yearly",
        "Canceled at period end",
        "Ends on Mar 03, 2027 14:05",
        "Mar 03, 2026 14:05",
        "$123.45",
      ]) {
        expect(text).toContain(part);
      }
      expect(markup).toContain('aria-label="Actions for ada@example.com (Members Only, Fan)"');
      expect(markup).toContain('aria-haspopup="menu"');
      expect(text).not.toContain("No access");
    });
  }

  it("says when a live membership has no access", () => {
    const text = textOf(
      inStore(
        <MembersTable
          members={[member({ status: "active", statusLabel: "Active", hasAccess: false })]}
          handlers={handlers}
        />,
      ),
    );
    expect(text).toContain("Renews on Mar 03, 2027 14:05");
    expect(text).toContain("No access until their next payment");
  });

  it("shows each member's amounts in the currency they pay in, yen in whole yen", () => {
    const text = textOf(
      inStore(
        <MembersTable
          members={[member({ amountCents: 500, lifetimeSpendCents: 1500, currency: "jpy" })]}
          handlers={handlers}
        />,
        "jpy",
      ),
    );
    expect(text).toContain("¥500");
    expect(text).toContain("¥1,500");
    expect(text).not.toContain("$");
  });
});
