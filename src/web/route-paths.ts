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
];

/** Pages the web app renders. */
export const APP_PAGE_PATHS = {
  auth: "auth",
  terms: "terms",
  privacy: "privacy",
  status: "status",
  systemStatus: "system-status",
  dashboard: "dashboard",
  analytics: "dashboard/analytics",
  newProduct: "new",
  editProduct: "products/:productId/edit",
  settings: "settings",
  discounts: "discounts",
  webhooks: "webhooks",
  library: "library",
  customers: "customers",
  emailCustomers: "customers/email",
} as const;

/** Whether a page answers this path (the landing page included), matched as the router matches it. */
export function isPagePath(pathname: string): boolean {
  if (pathname === "/") return true;
  return [...SERVER_PAGE_PATHS, ...Object.values(APP_PAGE_PATHS)].some(
    (pattern) => matchPath(`/${pattern}`, pathname) !== null,
  );
}
