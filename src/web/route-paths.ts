import { matchPath } from "react-router";

/**
 * The path of every page, in React Router's syntax and relative to `/`: the one list the web app's router
 * (router.tsx) and the server share. The server answers any other path with the app and status 404 (the
 * app shows its 404 page), so a page missing here would load with a 404 status: add new pages here.
 */

/** Pages the server renders (features/public-pages): the app has no code for them. */
export const SERVER_PAGE_PATHS = [
  "success",
  "download/:token",
  "product/:productId",
  "store/:userId",
  "unsubscribe/:token",
  "invoice/:token/billing",
  "product/:productId/report",
  "store/:userId/report",
];

/**
 * Pages the web app renders. The spec names /dashboard, /new and /settings; every other seller page
 * lives under /dashboard/ (`/dashboard/analytics`, `/dashboard/webhooks`...), so the address says where
 * it is in the app and `Disallow: /dashboard` keeps all of them from search engines.
 */
export const APP_PAGE_PATHS = {
  auth: "auth",
  terms: "terms",
  privacy: "privacy",
  status: "status",
  systemStatus: "system-status",
  dashboard: "dashboard",
  analytics: "dashboard/analytics",
  newProduct: "new",
  editProduct: "dashboard/products/:productId/edit",
  settings: "settings",
  discounts: "dashboard/discounts",
  webhooks: "dashboard/webhooks",
  posts: "dashboard/posts",
  library: "library",
  customers: "dashboard/customers",
  emailCustomers: "dashboard/customers/email",
  members: "dashboard/members",
  taxSettings: "dashboard/tax",
  taxReport: "dashboard/tax/report",
  taxGuide: "dashboard/tax/guide",
  invoices: "dashboard/invoices",
  operatorAudit: "operator/audit",
  dispute: "dashboard/disputes/:disputeId",
  operatorReports: "operator/reports",
  operatorReport: "operator/reports/:reportId",
  sellerReports: "dashboard/reports",
  sellerReport: "dashboard/reports/:reportId",
  // Enforcement (docs/operator.md): the console's pages, the seller's Standing page, the public policy.
  operatorOverview: "operator",
  operatorSellers: "operator/sellers",
  operatorSeller: "operator/sellers/:sellerId",
  operatorAppeals: "operator/appeals",
  standing: "settings/standing",
  // Moving a store here from another platform (docs/store-import.md): the start, and one import.
  storeImport: "settings/import",
  storeImportOne: "settings/import/:importId",
  enforcementPolicy: "policy/enforcement",
} as const;

/**
 * Seller pages' earlier addresses and where they moved: bookmarks and old links keep working (the
 * server answers them with a 301, the router redirects in-app navigations).
 */
export const MOVED_PAGE_PATHS: Record<string, string> = {
  discounts: APP_PAGE_PATHS.discounts,
  webhooks: APP_PAGE_PATHS.webhooks,
  customers: APP_PAGE_PATHS.customers,
  "customers/email": APP_PAGE_PATHS.emailCustomers,
  "products/:productId/edit": APP_PAGE_PATHS.editProduct,
};

/** The page's new address (`/dashboard/...`, its query kept) when `url` is one of the moved ones; else null. */
export function movedPageUrl(url: string): string | null {
  const [pathname = "", query] = url.split(/\?(.*)/s, 2);
  for (const [from, to] of Object.entries(MOVED_PAGE_PATHS)) {
    const match = matchPath(`/${from}`, pathname);
    // The matched segments as they were sent (generatePath would encode them a second time).
    if (match)
      return `/${to.replace(/:(\w+)/g, (_, name: string) => match.params[name] ?? "")}${query ? `?${query}` : ""}`;
  }
  return null;
}

/** Whether a page answers this path (the landing page included), matched as the router matches it. */
export function isPagePath(pathname: string): boolean {
  if (pathname === "/") return true;
  return [...SERVER_PAGE_PATHS, ...Object.values(APP_PAGE_PATHS)].some(
    (pattern) => matchPath(`/${pattern}`, pathname) !== null,
  );
}
