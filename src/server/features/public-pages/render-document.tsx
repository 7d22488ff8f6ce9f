import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { DEFAULT_LOCALE, LOCALE_PARAM, LOCALES, type Locale } from "../../../contracts/i18n/locales";
import { translator } from "../../../contracts/i18n/translator";
import { I18nProvider } from "../../../web/server-rendered";
import { escapeAttribute } from "../../http/html";
import type { PublicPageAssets } from "./page-assets";

// The same as src/web/index.html's, which Vite owns.
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%234f46e5'/%3E%3Cpath d='M10 9h13v3.5h-9v3h8v3.5h-8V24h-4z' fill='white'/%3E%3C/svg%3E";

/**
 * The <link rel="alternate" hreflang> tags of a page read in every language (product, store): one
 * address per language (`?lang=xx`, which the server answers in that language) and `x-default`, the
 * address without a choice (the browser's language, docs/i18n.md). Absolute, as search engines want.
 */
export function languageAlternates(appUrl: string, path: string): string {
  const link = (hreflang: string, href: string) =>
    `<link rel="alternate" hreflang="${hreflang}" href="${escapeAttribute(href)}" />`;
  return [
    ...LOCALES.map((locale) => link(locale, `${appUrl}${path}?${LOCALE_PARAM}=${locale}`)),
    link("x-default", `${appUrl}${path}`),
  ].join("\n    ");
}

/**
 * A whole public page: the page's React tree rendered to HTML (never hydrated: every action is a
 * plain link or form), its <head> tags (title, description, link preview), the inlined stylesheet and
 * the pages' small script. `bodyData` becomes data-* attributes the script reads. `locale` is the
 * buyer's language (http/buyer-locale.ts): the page's `lang`, and what its components speak. `path` is
 * the page's address with its query as a GET answers it (the language switcher links to it).
 */
export function renderDocument(options: {
  assets: PublicPageAssets;
  path: string;
  headTags: string;
  page: ReactElement;
  bodyData?: Record<string, string>;
  locale?: Locale;
}): string {
  const { assets, headTags, page, locale = DEFAULT_LOCALE } = options;
  const body = renderToString(
    <StaticRouter location={options.path}>
      <I18nProvider value={translator(locale)}>{page}</I18nProvider>
    </StaticRouter>,
  );
  const data = Object.entries(options.bodyData ?? {})
    .map(([key, value]) => ` data-${key}="${escapeAttribute(value)}"`)
    .join("");
  const script = assets.scriptPath ? `\n    <script type="module" src="${assets.scriptPath}"></script>` : "";
  return `<!doctype html>
<html lang="${locale}">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="theme-color" content="#4f46e5" />
    <link rel="icon" href="${ICON}" />
    ${headTags}
    <style>${assets.styles}</style>${script}
  </head>
  <body${data}>
    <div id="root">${body}</div>
  </body>
</html>
`;
}
