import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { translator } from "../../../contracts/i18n/translator";
import type { BuyerPurchase, LibraryMembership, LibraryResponse } from "../../../contracts/orders";
import { renderPostMarkup } from "../../../contracts/post-markup";
import { POST_MESSAGES } from "../../../contracts/posts";
import { I18nProvider } from "../../lib/i18n";
import { loadTranslator } from "../../lib/load-translator";
import { LibraryContent } from "./library-content";
import {
  membershipCurrency,
  membershipDateLine,
  membershipPriceLabel,
  shownPosts,
} from "./membership-format";

const period: BuyerPurchase = {
  orderId: "ord_1",
  productId: "prod_1",
  productTitle: "The Club",
  sellerName: "Ada's Studio",
  sellerId: "seller_1",
  amountCents: 500,
  currency: "usd",
  customerEmail: "member@example.com",
  status: "completed",
  createdAt: "2026-03-01T10:00:00.000Z",
  downloadsUsed: 1,
  files: [{ id: "file_1", name: "basics.pdf", sizeBytes: 2048, downloadsUsed: 1, downloadsRemaining: 2 }],
  downloadWindowEndsAt: "2026-04-04T10:00:00.000Z",
  unavailableReason: null,
  downloadPath: "/download/tok_1",
  coverThumbnailUrl: null,
  licenseKey: null,
  tax: null,
  withdrawalWaiver: null,
};

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
  period,
  posts: [
    {
      id: "post_2",
      title: "April notes",
      html: renderPostMarkup("Hello <script>alert(1)</script> **members**"),
      publishedAt: "2026-03-20T10:00:00.000Z",
      attachments: [{ id: "file_2", name: "bonus.pdf", sizeBytes: 4096, downloadsRemaining: 3 }],
    },
  ],
  postEmails: true,
  tierId: "tier_1",
  switchableTiers: [],
  ...fields,
});

function render(data: Partial<LibraryResponse>, token: string | null = "tok") {
  const client = new QueryClient();
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <LibraryContent
        data={{ email: "member@example.com", purchases: [], memberships: [], ...data }}
        token={token}
      />
    </QueryClientProvider>,
  );
}

describe("the library's memberships", () => {
  it("shows product, tier, status, renewal, price, the period's files and the posts", () => {
    const html = render({ memberships: [membership()] });
    expect(html).toContain("Your library");
    expect(html).toContain(">Memberships</h2>");
    expect(html).toContain(">The Club</h3>");
    expect(html).toContain("Fan");
    expect(html).toContain(">Active</span>");
    expect(html).toContain("Renews on Apr 1, 2026");
    expect(html).toContain("$5.00 / month");
    expect(html).toContain("basics.pdf");
    expect(html).toContain("2 of 3 downloads left");
    expect(html).toContain('aria-label="Download basics.pdf"');
    expect(html).toContain(">April notes</h5>");
    // The server's escaped HTML, as is: the script is text.
    expect(html).toContain("Hello &lt;script&gt;alert(1)&lt;/script&gt; <strong>members</strong>");
    expect(html).not.toContain("<script>");
    expect(html).toContain("bonus.pdf");
    expect(html).toContain('aria-label="Download bonus.pdf"');
    expect(html).toMatch(/<input[^>]*role="switch"[^>]*checked=""/);
    expect(html).toContain("Email me new posts");
    expect(html).toContain("Manage membership");
  });

  it("says where each state stands, and hides posts without access", () => {
    expect(membershipDateLine(membership({ status: "trialing", trialEnd: "2026-03-15T00:00:00Z" }))).toBe(
      "Trial until Mar 15, 2026",
    );
    expect(membershipDateLine(membership({ status: "canceling" }))).toBe("Access until Apr 1, 2026");
    expect(membershipDateLine(membership({ status: "ended" }))).toBe("Ended on Apr 1, 2026");
    expect(membershipDateLine(membership({ status: "past_due" }))).toMatch(/update your card/);
    expect(membershipPriceLabel({ amountCents: 5000, interval: "year" }, "usd")).toBe("$50.00 / year");
    expect(membershipPriceLabel({ amountCents: 5000, interval: "month" }, "jpy")).toBe("¥5,000 / month");
    // A membership's amounts are in what its periods were paid in; dollars before any period.
    expect(membershipCurrency(membership({ period: { ...period, currency: "eur" } }))).toBe("eur");
    expect(membershipCurrency(membership({ period: null }))).toBe("usd");
    expect(render({ memberships: [membership({ period: { ...period, currency: "eur" } })] })).toContain(
      "€5.00 / month",
    );

    const ended = render({
      memberships: [
        membership({
          status: "ended",
          statusLabel: "Ended",
          hasAccess: false,
          posts: [],
          period: { ...period, downloadPath: null, unavailableReason: "This membership is not active." },
        }),
      ],
    });
    expect(ended).toContain("Ended on Apr 1, 2026");
    expect(ended).toContain("This membership is not active.");
    expect(ended).toContain("Posts show here while your membership is active.");
    expect(ended).not.toContain('aria-label="Download');
  });

  it("shows the switch off when post emails are off, and needs the library link for the controls", () => {
    expect(render({ memberships: [membership({ postEmails: false })] })).not.toMatch(
      /<input[^>]*role="switch"[^>]*checked=""/,
    );
    const signedIn = render({ memberships: [membership()] }, null);
    expect(signedIn).not.toContain("Manage membership");
    expect(signedIn).not.toContain('role="switch"');
    expect(signedIn).toContain(POST_MESSAGES.postEmailsNeedLink.replace(/'/g, "&#x27;"));
  });

  it("shows a few posts first, then the older ones on request", () => {
    const posts = Array.from({ length: 5 }, (_, i) => ({
      id: `post_${i}`,
      title: `Post ${i}`,
      html: "<p>x</p>",
      publishedAt: "2026-03-01T00:00:00Z",
      attachments: [],
    }));
    const html = render({ memberships: [membership({ posts })] });
    expect(html).toContain("Post 2");
    expect(html).not.toContain("Post 3");
    expect(html).toContain("Show 2 older posts");
    expect(shownPosts(posts, true)).toHaveLength(5);
  });

  it("keeps the purchases, under their own heading next to memberships, and alone without any", () => {
    const purchase = { ...period, orderId: "ord_2", productTitle: "The Guide" };
    const both = render({ memberships: [membership()], purchases: [purchase] });
    expect(both).toContain(">Purchases</h2>");
    expect(both).toContain(">The Guide</h3>");
    const only = render({ purchases: [purchase] });
    expect(only).toContain("Your purchases");
    expect(only).not.toContain("Memberships");
    expect(only).toContain(">The Guide</h2>");
    // Each purchase in what the buyer paid in.
    expect(only).toContain(">$5.00</p>");
    expect(render({ purchases: [{ ...purchase, amountCents: 1800, currency: "eur" }] })).toContain(
      ">€18.00</p>",
    );
  });
});

describe("the library in the buyer's language", () => {
  /** The library as a page wrapped in `locale`'s provider renders it; Intl's no-break spaces as spaces. */
  function renderIn(locale: "de" | "ja", data: Partial<LibraryResponse>) {
    return renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <I18nProvider value={translator(locale)}>
          <LibraryContent
            data={{ email: "member@example.com", purchases: [], memberships: [], ...data }}
            token="tok"
          />
        </I18nProvider>
      </QueryClientProvider>,
    ).replace(/\u00a0/g, " ");
  }
  const euros = { ...period, currency: "eur", amountCents: 1800 };

  it("writes a membership card in German: its words, status, euros and dates", () => {
    const html = renderIn("de", {
      memberships: [membership({ amountCents: 1800, period: euros })],
      purchases: [{ ...euros, orderId: "ord_2", productTitle: "The Guide" }],
    });
    expect(html).toContain("Ihre Bibliothek");
    expect(html).toContain(">Mitgliedschaften</h2>");
    expect(html).toContain(">Käufe</h2>");
    expect(html).toMatch(/Gekauft mit <span[^>]*>member@example.com<\/span>/);
    expect(html).toContain(">Aktiv</span>");
    expect(html).toContain("Verlängert sich am 01.04.2026");
    expect(html).toContain("18,00 € / Monat");
    expect(html).toContain(">18,00 €</p>");
    expect(html).toContain("Noch 2 von 3 Downloads");
    expect(html).toContain('aria-label="basics.pdf herunterladen"');
    expect(html).toContain("Sie können jede Datei bis zu 3-mal pro Abrechnungszeitraum herunterladen.");
    expect(html).toContain("Sie können jede Datei bis zum 04.04.2026 bis zu 3-mal herunterladen.");
    expect(html).toContain('<time dateTime="2026-03-20T10:00:00.000Z">20.03.2026</time>');
    expect(html).toContain(">Dateien</h4>");
    expect(html).toContain(">Beiträge</h4>");
    expect(html).toContain("Neue Beiträge per E-Mail erhalten");
    expect(html).toContain("Mitgliedschaft verwalten");
    // No English left: the words the English card shows.
    for (const english of [
      "Renews on",
      "Manage membership",
      "Email me new posts",
      "downloads left",
      "/ month",
    ]) {
      expect(html).not.toContain(english);
    }

    const ended = renderIn("de", {
      memberships: [membership({ status: "ended", statusLabel: "Ended", hasAccess: false, posts: [] })],
    });
    expect(ended).toContain(">Beendet</span>");
    expect(ended).toContain("Beendet am 01.04.2026");
    expect(ended).toContain("Beiträge erscheinen hier, solange Ihre Mitgliedschaft aktiv ist.");
    expect(renderIn("de", {})).toContain("Noch keine Käufe");
  });

  it("speaks Japanese, with yen and the day as Japanese writes it", () => {
    const yen = { ...period, currency: "jpy", amountCents: 1500 };
    const html = renderIn("ja", { memberships: [membership({ amountCents: 1500, period: yen })] });
    expect(html).toContain("ライブラリ");
    expect(html).toContain("2026/04/01に更新");
    expect(html).toContain("￥1,500 / 月");
    expect(html).toContain("メンバーシップを管理");
  });

  it("loads a language's catalogue for the app on its own, English's in the bundle", async () => {
    const german = await loadTranslator("de");
    expect(german.locale).toBe("de");
    expect(german.t("library.title")).toBe("Ihre Käufe");
    expect(german.money(1800, "eur").replace(/\u00a0/g, " ")).toBe("18,00 €");
    expect((await loadTranslator("en")).t("library.title")).toBe("Your purchases");
  });
});
