/** The landing page sections the site header links to, in the app and on server-rendered pages. */
export const SECTIONS = [
  { id: "features", labelKey: "site.section.features" },
  { id: "pricing", labelKey: "site.section.pricing" },
  { id: "faq", labelKey: "site.section.faq" },
] as const;

export const navLinkClasses =
  "rounded-md px-3 py-2 text-sm font-medium text-muted transition-colors outline-none hover:text-ink focus-visible:ring-2 focus-visible:ring-brand-500";
