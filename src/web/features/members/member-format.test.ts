import { describe, expect, it } from "vitest";
import type { Member } from "../../../contracts/memberships";
import { formatSaleDate } from "../sales/sale-format";
import {
  accessNote,
  actionDoneMessage,
  amountPerPeriod,
  availableActions,
  cancelNowWarning,
  INTERVAL_LABELS,
  memberName,
  periodDateLine,
  STATUS_FILTER_OPTIONS,
  STATUS_TONES,
} from "./member-format";

const renewal = new Date(2026, 3, 3, 14, 5).toISOString();
const ended = new Date(2026, 2, 20, 9, 0).toISOString();

const member = (overrides: Partial<Member> = {}): Member => ({
  id: "mem_1",
  email: "ada@example.com",
  productId: "p1",
  productTitle: "Members Only",
  tierName: "Fan",
  interval: "month",
  amountCents: 500,
  currency: "usd",
  status: "active",
  statusLabel: "Active",
  startedAt: new Date(2026, 2, 3, 14, 5).toISOString(),
  currentPeriodEnd: renewal,
  endedAt: null,
  lifetimeSpendCents: 1000,
  hasAccess: true,
  ...overrides,
});

describe("the members page's status and date copy", () => {
  it("says which date comes next, by status, in the customers page's date format", () => {
    expect(periodDateLine(member({ status: "active" }))).toBe("Renews on Apr 03, 2026 14:05");
    expect(periodDateLine(member({ status: "trialing" }))).toBe("First payment on Apr 03, 2026 14:05");
    expect(periodDateLine(member({ status: "canceling" }))).toBe("Ends on Apr 03, 2026 14:05");
    expect(periodDateLine(member({ status: "past_due" }))).toBe("Period ends Apr 03, 2026 14:05");
    expect(periodDateLine(member({ status: "ended", endedAt: ended }))).toBe("Ended Mar 20, 2026 09:00");
    // An end Stripe did not date: the period's end.
    expect(periodDateLine(member({ status: "ended", endedAt: null }))).toBe(
      `Ended ${formatSaleDate(renewal)}`,
    );
  });

  it("offers every status filter with the members' own labels, All first", () => {
    expect(STATUS_FILTER_OPTIONS.map((option) => option.label)).toEqual([
      "All",
      "Trial",
      "Active",
      "Past due",
      "Canceled at period end",
      "Ended",
    ]);
    expect(STATUS_FILTER_OPTIONS.map((option) => option.value)).toEqual([
      "all",
      "trialing",
      "active",
      "past_due",
      "canceling",
      "ended",
    ]);
  });

  it("gives each status its own badge colour", () => {
    expect(new Set(Object.values(STATUS_TONES)).size).toBe(5);
  });

  it("writes the interval and the amount per period in the store currency", () => {
    expect(INTERVAL_LABELS).toEqual({ month: "Monthly", year: "Yearly" });
    expect(amountPerPeriod(member(), "usd")).toBe("$5.00 / month");
    expect(amountPerPeriod(member({ interval: "year", amountCents: 1_000_000 }), "usd")).toBe(
      "$10,000.00 / year",
    );
    expect(amountPerPeriod(member({ amountCents: 500 }), "jpy")).toBe("¥500 / month");
  });

  it("names a member by email, product and tier (one email may hold several memberships)", () => {
    expect(memberName(member())).toBe("ada@example.com (Members Only, Fan)");
  });

  it("notes access that ended before the membership did", () => {
    expect(accessNote(member())).toBeNull();
    expect(accessNote(member({ status: "ended", hasAccess: false }))).toBeNull();
    expect(accessNote(member({ hasAccess: false }))).toBe("No access until their next payment");
    expect(accessNote(member({ status: "past_due", hasAccess: false }))).toBe(
      "No access until their next payment",
    );
    expect(accessNote(member({ status: "canceling", hasAccess: false }))).toBe("No access");
  });
});

describe("the members page's actions", () => {
  it("are offered where they can apply", () => {
    expect(availableActions(member())).toEqual({
      cancelAtPeriodEnd: true,
      cancelNow: true,
      refundLastPayment: true,
    });
    expect(availableActions(member({ status: "canceling" }))).toMatchObject({
      cancelAtPeriodEnd: false,
      cancelNow: true,
    });
    expect(availableActions(member({ status: "past_due" }))).toMatchObject({
      cancelAtPeriodEnd: true,
      cancelNow: true,
    });
    expect(availableActions(member({ status: "ended" }))).toEqual({
      cancelAtPeriodEnd: false,
      cancelNow: false,
      refundLastPayment: true,
    });
    // A trial that has paid nothing, or a membership refunded in full: nothing to refund.
    expect(availableActions(member({ status: "trialing", lifetimeSpendCents: 0 })).refundLastPayment).toBe(
      false,
    );
  });

  it("warn that cancelling now ends access at once", () => {
    expect(cancelNowWarning(member())).toBe(
      "ada@example.com loses access to Members Only at once and is not charged again. Payments already made are not refunded.",
    );
  });

  it("confirm what happened from the server's answer", () => {
    expect(actionDoneMessage("cancel-period-end", member(), member({ status: "canceling" }), "usd")).toEqual({
      title: "Membership set to end",
      description: "ada@example.com keeps access until Apr 03, 2026 14:05, then the membership ends.",
    });
    expect(
      actionDoneMessage("cancel-now", member(), member({ status: "ended", hasAccess: false }), "usd"),
    ).toEqual({
      title: "Membership canceled",
      description: "ada@example.com no longer has access to Members Only.",
    });
    expect(
      actionDoneMessage(
        "refund",
        member({ lifetimeSpendCents: 1000 }),
        member({ lifetimeSpendCents: 500 }),
        "usd",
      ),
    ).toEqual({
      title: "Last payment refunded",
      description:
        "$5.00 is on its way back to ada@example.com. They keep access for the period it paid for.",
    });
    expect(
      actionDoneMessage(
        "refund",
        member({ lifetimeSpendCents: 500 }),
        member({ lifetimeSpendCents: 0, hasAccess: false }),
        "usd",
      ).description,
    ).toBe("$5.00 is on its way back to ada@example.com. Their access has ended.");
    expect(
      actionDoneMessage(
        "refund",
        member({ lifetimeSpendCents: 1000 }),
        member({ lifetimeSpendCents: 500 }),
        "eur",
      ).description,
    ).toMatch(/^€5\.00 is on its way back/);
  });
});
