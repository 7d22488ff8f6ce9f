import { describe, expect, it } from "vitest";
import { checkCard } from "./cards.js";
import { addInterval } from "./periods.js";

const at = (iso: string) => Date.parse(iso) / 1000;
const NOW = at("2026-03-15T12:00:00Z");

describe("billing periods", () => {
  it("adds calendar months and years, clamping to the month's last day", () => {
    expect(addInterval(at("2026-01-31T10:00:00Z"), "month", 1)).toBe(at("2026-02-28T10:00:00Z"));
    expect(addInterval(at("2028-01-31T10:00:00Z"), "month", 1)).toBe(at("2028-02-29T10:00:00Z"));
    expect(addInterval(at("2026-11-15T00:00:00Z"), "month", 3)).toBe(at("2027-02-15T00:00:00Z"));
    expect(addInterval(at("2026-05-01T00:00:00Z"), "year", 1)).toBe(at("2027-05-01T00:00:00Z"));
    expect(addInterval(at("2026-05-01T00:00:00Z"), "week", 2)).toBe(at("2026-05-15T00:00:00Z"));
    expect(addInterval(at("2026-05-01T00:00:00Z"), "day", 1)).toBe(at("2026-05-02T00:00:00Z"));
  });
});

describe("test cards", () => {
  const card = (number: string, expiry = "12/34", cvc = "123") => checkCard({ number, expiry, cvc }, NOW);

  it("pays with Stripe's succeeding test cards", () => {
    expect(card("4242 4242 4242 4242")).toEqual({
      ok: true,
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2034,
    });
    expect(card("5555-5555-5555-4444")).toMatchObject({ ok: true, brand: "mastercard" });
  });

  it("declines like Stripe, with the buyer-facing message", () => {
    expect(card("4000000000000002")).toMatchObject({
      ok: false,
      declineCode: "generic_decline",
      message: "Your card was declined.",
    });
    expect(card("4000000000009995")).toMatchObject({ message: "Your card has insufficient funds." });
    expect(card("4242424242424241")).toMatchObject({ code: "incorrect_number" });
    expect(card("4111111111111111")).toMatchObject({ declineCode: "test_mode_live_card" });
  });

  it("checks the expiry date and the CVC", () => {
    expect(card("4242424242424242", "02/26")).toMatchObject({ ok: false, param: "expiry" });
    expect(card("4242424242424242", "03 / 2026")).toMatchObject({ ok: true });
    expect(card("4242424242424242", "13/30")).toMatchObject({ ok: false, param: "expiry" });
    expect(card("4242424242424242", "12/34", "1")).toMatchObject({ ok: false, param: "cvc" });
  });
});
