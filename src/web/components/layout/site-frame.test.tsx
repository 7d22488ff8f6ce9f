import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { translator } from "../../../contracts/i18n/translator";
import { I18nProvider } from "../../lib/i18n";
import { PublicPageShell } from "./public-page-shell";
import { SiteFooter } from "./site-footer";

// The site's own frame (its footer and the landing page's header) speaks the page's language where a
// page is translated (the library), and English word for word everywhere else.

const html = (node: ReactNode) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <StaticRouter location="/library">{node}</StaticRouter>
    </QueryClientProvider>,
  );
const year = String(new Date().getUTCFullYear());

describe("the site's frame", () => {
  it("is English without a language", () => {
    const footer = html(<SiteFooter />);
    for (const words of ["Terms of Service", "Privacy Policy", "System Monitor", 'aria-label="Footer"'])
      expect(footer).toContain(words);
    expect(footer).toContain("Sell digital products for a flat $10/month. 0% of your sales.");
    expect(footer).toContain(
      `© ${year} Flatfee. Payments are processed by Stripe on each creator&#x27;s own account.`,
    );
    const header = html(<PublicPageShell signedIn={false}>page</PublicPageShell>);
    for (const words of [">Features<", ">Pricing<", ">FAQ<", ">Login<", ">Sign Up<", "Open menu"])
      expect(header).toContain(words);
  });

  it("follows the page's language, with the year as written (never '2.026')", () => {
    const footer = html(
      <I18nProvider value={translator("de")}>
        <SiteFooter languageSwitcher />
      </I18nProvider>,
    );
    for (const words of [
      "Nutzungsbedingungen",
      "Datenschutzerklärung",
      "Systemstatus",
      'aria-label="Fußzeile"',
    ])
      expect(footer).toContain(words);
    expect(footer).toContain(`© ${year} Flatfee. Zahlungen`);
    expect(footer).not.toContain("Terms of Service");
    const japanese = html(
      <I18nProvider value={translator("ja")}>
        <PublicPageShell signedIn>page</PublicPageShell>
      </I18nProvider>,
    );
    for (const words of [">機能<", ">料金<", ">ダッシュボード<", ">ログアウト<", "利用規約"])
      expect(japanese).toContain(words);
  });
});
