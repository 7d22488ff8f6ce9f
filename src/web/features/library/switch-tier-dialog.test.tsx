import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { translator } from "../../../contracts/i18n/translator";
import { MEMBERSHIP_CHANGE_MESSAGES, type MembershipChangePreview } from "../../../contracts/memberships";
import type { LibraryMembership } from "../../../contracts/orders";
import { ApiError } from "../../lib/api";
import { I18nProvider } from "../../lib/i18n";
import { confirmMembershipChange, previewMembershipChange } from "./library-api";
import { MembershipCard } from "./membership-card";
import {
  canSwitchMembership,
  changeDueLine,
  changeThenLine,
  chooseTier,
  initialChoice,
  signedPrice,
  tierPriceLine,
} from "./membership-change-format";
import { ChooseStep, PreviewStep } from "./switch-tier-dialog";

const FAN = { id: "tier_fan", name: "Fan", monthlyPriceCents: 500, yearlyPriceCents: 5000 };
const PATRON = { id: "tier_patron", name: "Patron", monthlyPriceCents: 1500, yearlyPriceCents: null };

const membership = (fields: Partial<LibraryMembership> = {}): LibraryMembership => ({
  id: "mem_1",
  productId: "prod_1",
  productTitle: "The Club",
  sellerName: "Ada's Studio",
  tierName: "Fan",
  interval: "month",
  amountCents: 500,
  status: "active",
  statusLabel: "Active",
  currentPeriodEnd: "2026-04-01T10:00:00.000Z",
  trialEnd: null,
  hasAccess: true,
  period: null,
  posts: [],
  postEmails: true,
  tierId: FAN.id,
  switchableTiers: [FAN, PATRON],
  ...fields,
});

const preview = (fields: Partial<MembershipChangePreview> = {}): MembershipChangePreview => ({
  tierName: "Patron",
  interval: "month",
  amountCents: 1500,
  amountDueCents: 997,
  creditCents: 0,
  lines: [
    { description: "Unused time on The Club: Fan", amountCents: -499 },
    { description: "Remaining time on The Club: Patron", amountCents: 1496 },
  ],
  prorationDate: 1_775_000_000,
  ...fields,
});

const noop = () => {};

/** fetch answering `status` with `body`, remembering each request. */
function stubFetch(status: number, body?: unknown) {
  const calls: Array<{ url: string; method: string; body: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? "GET", body: JSON.parse(String(init.body)) });
      return new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: body === undefined ? {} : { "content-type": "application/json" },
      });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("switching tier from the library: the requests", () => {
  it("previews with the library token, the tier and the interval", async () => {
    const calls = stubFetch(200, preview());
    const answer = await previewMembershipChange({
      membershipId: "mem 1",
      token: "tok.en",
      tierId: PATRON.id,
      interval: "month",
    });
    expect(calls).toEqual([
      {
        url: "/api/library/memberships/mem%201/change-preview",
        method: "POST",
        body: { token: "tok.en", tierId: PATRON.id, interval: "month" },
      },
    ]);
    expect(answer).toEqual(preview());
  });

  it("confirms with the preview's proration moment, and takes the 204", async () => {
    const calls = stubFetch(204);
    await confirmMembershipChange({
      membershipId: "mem_1",
      token: "tok",
      tierId: FAN.id,
      interval: "year",
      prorationDate: 1_775_000_000,
    });
    expect(calls).toEqual([
      {
        url: "/api/library/memberships/mem_1/change",
        method: "POST",
        body: { token: "tok", tierId: FAN.id, interval: "year", prorationDate: 1_775_000_000 },
      },
    ]);
  });

  it("rejects with the server's message", async () => {
    stubFetch(409, { code: "membership_ended", message: MEMBERSHIP_CHANGE_MESSAGES.notChangeable });
    const refused = previewMembershipChange({
      membershipId: "m",
      token: "t",
      tierId: "x",
      interval: "month",
    });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toThrow(MEMBERSHIP_CHANGE_MESSAGES.notChangeable);
  });
});

describe("switching tier from the library: the choices", () => {
  it("offers the switch only with something to switch to", () => {
    expect(canSwitchMembership(membership())).toBe(true);
    expect(canSwitchMembership(membership({ switchableTiers: [] }))).toBe(false);
    // Their own tier alone: only when it has the other interval.
    expect(canSwitchMembership(membership({ switchableTiers: [FAN] }))).toBe(true);
    expect(
      canSwitchMembership(membership({ tierId: PATRON.id, switchableTiers: [PATRON], interval: "month" })),
    ).toBe(false);
    expect(canSwitchMembership(membership({ switchableTiers: [{ ...FAN, yearlyPriceCents: null }] }))).toBe(
      false,
    );
  });

  it("starts on the member's tier and interval; a tier without a yearly price is monthly", () => {
    expect(initialChoice(membership({ interval: "year" }))).toEqual({ tierId: FAN.id, interval: "year" });
    expect(initialChoice(membership({ tierId: null }))).toEqual({ tierId: FAN.id, interval: "month" });
    expect(chooseTier(PATRON, "year")).toEqual({ tierId: PATRON.id, interval: "month" });
    expect(chooseTier(FAN, "year")).toEqual({ tierId: FAN.id, interval: "year" });
    expect(tierPriceLine(FAN, "usd")).toBe("$5.00 / month or $50.00 / year");
    expect(tierPriceLine(PATRON, "usd")).toBe("$15.00 / month");
    expect(tierPriceLine(PATRON, "eur")).toBe("€15.00 / month");
  });

  it("lists the tiers as radios, the member's marked, with Monthly/Yearly and the saving", () => {
    const html = renderToStaticMarkup(
      <ChooseStep
        membership={membership()}
        choice={{ tierId: FAN.id, interval: "month" }}
        onChoice={noop}
        onPreview={noop}
        busy={false}
        problem={null}
      />,
    );
    expect(html.match(/role="radio"/g)).toHaveLength(4);
    expect(html).toMatch(/Fan<\/span><span[^>]*>Your tier<\/span>/);
    expect(html).not.toMatch(/Patron<\/span><span[^>]*>Your tier/);
    expect(html).toContain("Monthly");
    expect(html).toContain("$50.00 / year · Save 16%");
    expect(html).toContain(">Preview</button>");

    // Patron has no yearly price: no interval choice.
    const patron = renderToStaticMarkup(
      <ChooseStep
        membership={membership()}
        choice={{ tierId: PATRON.id, interval: "month" }}
        onChoice={noop}
        onPreview={noop}
        busy={false}
        problem={MEMBERSHIP_CHANGE_MESSAGES.tierUnavailable}
      />,
    );
    expect(patron.match(/role="radio"/g)).toHaveLength(2);
    expect(patron).not.toContain("Yearly");
    expect(patron).toMatch(/role="alert"[^>]*>This tier is not open to new members\.<\/p>/);
  });
});

describe("switching tier from the library: the preview", () => {
  it("says what is charged now, or the credit left, and the price after", () => {
    expect(changeDueLine(preview(), "usd")).toBe("You'll be charged $9.97 now.");
    expect(changeDueLine(preview({ amountDueCents: 0, creditCents: 300 }), "usd")).toBe(
      "Nothing to pay now; $3.00 credit goes to your next payments.",
    );
    expect(changeDueLine(preview({ amountDueCents: 0, creditCents: 0 }), "usd")).toBe("Nothing to pay now.");
    expect(changeThenLine(preview(), "usd")).toBe("Then $15.00 per month.");
    expect(changeThenLine(preview({ interval: "year", amountCents: 15000 }), "usd")).toBe(
      "Then $150.00 per year.",
    );
    expect(signedPrice(-499, "usd")).toBe("−$4.99");
    expect(signedPrice(1496, "usd")).toBe("$14.96");
    expect(signedPrice(-499, "jpy")).toBe("−¥499");
    expect(changeDueLine(preview(), "eur")).toBe("You'll be charged €9.97 now.");
  });

  it("shows the charge, Stripe's lines and the new price before confirming", () => {
    const html = renderToStaticMarkup(
      <PreviewStep
        preview={preview()}
        currency="usd"
        onBack={noop}
        onConfirm={noop}
        busy={false}
        problem={null}
      />,
    );
    expect(html).toContain("Patron, billed monthly");
    expect(html).toContain("You&#x27;ll be charged $9.97 now.");
    expect(html).toContain("Unused time on The Club: Fan");
    expect(html).toContain("−$4.99");
    expect(html).toContain("Remaining time on The Club: Patron");
    expect(html).toContain("$14.96");
    expect(html).toContain("Then $15.00 per month.");
    expect(html).toContain("Confirm and pay $9.97");

    const credit = renderToStaticMarkup(
      <PreviewStep
        preview={preview({ tierName: "Fan", amountCents: 500, amountDueCents: 0, creditCents: 300 })}
        currency="usd"
        onBack={noop}
        onConfirm={noop}
        busy={false}
        problem="The card was declined."
      />,
    );
    expect(credit).toContain("Nothing to pay now; $3.00 credit goes to your next payments.");
    expect(credit).toContain("Confirm switch");
    expect(credit).not.toContain("Confirm and pay");
    expect(credit).toMatch(/role="alert"[^>]*>The card was declined\.<\/p>/);
  });
});

describe("the membership card's Switch tier", () => {
  const render = (fields: Partial<LibraryMembership>, token: string | null = "tok") =>
    renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <MembershipCard membership={membership(fields)} token={token} />
      </QueryClientProvider>,
    );

  it("shows with the library link and something to switch to", () => {
    expect(render({})).toContain("Switch tier");
    expect(render({}, null)).not.toContain("Switch tier");
    expect(render({ switchableTiers: [], status: "ended", statusLabel: "Ended" })).not.toContain(
      "Switch tier",
    );
  });
});

describe("switching tier in the buyer's language", () => {
  const german = (node: React.ReactNode) =>
    renderToStaticMarkup(<I18nProvider value={translator("de")}>{node}</I18nProvider>).replace(
      /\u00a0/g,
      " ",
    );

  it("offers the tiers in German, with euros as German writes them", () => {
    const html = german(
      <ChooseStep
        membership={membership({ period: { currency: "eur" } as LibraryMembership["period"] })}
        choice={{ tierId: FAN.id, interval: "month" }}
        onChoice={noop}
        onPreview={noop}
        busy={false}
        problem={null}
      />,
    );
    expect(html).toMatch(/Fan<\/span><span[^>]*>Ihre Stufe<\/span>/);
    expect(html).toContain("5,00 € / Monat oder 50,00 € / Jahr");
    expect(html).toContain("15,00 € / Monat");
    expect(html).toContain("Monatlich");
    expect(html).toContain("50,00 € / Jahr · 16 % sparen");
    expect(html).toContain(">Vorschau</button>");
    expect(html).not.toContain("Your tier");
    expect(tierPriceLine(FAN, "eur", translator("de")).replace(/\u00a0/g, " ")).toBe(
      "5,00 € / Monat oder 50,00 € / Jahr",
    );
  });

  it("says the preview's summary in German", () => {
    const html = german(
      <PreviewStep
        preview={preview()}
        currency="eur"
        onBack={noop}
        onConfirm={noop}
        busy={false}
        problem={null}
      />,
    );
    expect(html).toContain("Patron, monatliche Abrechnung");
    expect(html).toContain("Ihnen werden jetzt 9,97 € berechnet.");
    expect(html).toContain("−4,99 €");
    expect(html).toContain("14,96 €");
    expect(html).toContain("Danach 15,00 € pro Monat.");
    expect(html).toContain("Bestätigen und 9,97 € zahlen");
    expect(html).toContain("Zurück");
    // Stripe's own lines come as Stripe wrote them.
    expect(html).toContain("Unused time on The Club: Fan");

    const de = translator("de");
    const credit = preview({ amountDueCents: 0, creditCents: 300, interval: "year" });
    expect(changeDueLine(credit, "eur", de).replace(/\u00a0/g, " ")).toBe(
      "Jetzt nichts zu zahlen; 3,00 € Guthaben werden mit Ihren nächsten Zahlungen verrechnet.",
    );
    expect(changeThenLine(credit, "eur", de).replace(/\u00a0/g, " ")).toBe("Danach 15,00 € pro Jahr.");
  });

  it("shows the card's Switch tier button in German", () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <I18nProvider value={translator("de")}>
          <MembershipCard membership={membership()} token="tok" />
        </I18nProvider>
      </QueryClientProvider>,
    );
    expect(html).toContain("Stufe wechseln");
    expect(html).not.toContain("Switch tier");
  });
});
