import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  Outlet,
  redirect,
  ScrollRestoration,
} from "react-router";
import { PageSpinner } from "./components/ui/spinner";
import { ErrorScreen } from "./features/errors/error-screen";
import { useRealtimeUpdates } from "./lib/realtime";
import { useSession } from "./lib/session";
import { APP_PAGE_PATHS, MOVED_PAGE_PATHS, movedPageUrl, SERVER_PAGE_PATHS } from "./route-paths";

/**
 * React Router keys each history entry (and the scroll position saved for it) by the key in its
 * history state. An entry opened as a document has no state, so all of them would share the key
 * "default", and a new page would open at the scroll position saved on another one (/terms opened
 * 2,300 px down). Each entry gets a key of its own before the router reads it; history state survives
 * reloads and back/forward, so those still restore the entry's own position.
 */
function keyThisHistoryEntry(): void {
  const state: unknown = window.history.state;
  if (state && typeof state === "object" && "key" in state && state.key) return;
  const key = Math.random().toString(36).slice(2, 10);
  window.history.replaceState({ usr: null, idx: 0, ...(state as object | null), key }, "");
}
keyThisHistoryEntry();

function RootLayout() {
  const { user } = useSession();
  useRealtimeUpdates(user?.id ?? null);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/**
 * A navigation inside the app to a page the server renders (a Link without reloadDocument, a
 * navigate() call) loads that page as a document; the current page stays until it arrives.
 */
function loadFromServer({ request }: LoaderFunctionArgs): Promise<never> {
  window.location.assign(request.url);
  return new Promise(() => {});
}

/** A seller page's earlier address, reached inside the app: to where it lives now (as the server's 301). */
function redirectToMovedPage({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return redirect(movedPageUrl(`${url.pathname}${url.search}`) ?? `/${APP_PAGE_PATHS.dashboard}`);
}

/**
 * Every page is its own chunk, loaded when first visited. The landing page and the public and buyer
 * pages are rendered by the server (features/public-pages), so going to one loads the document.
 */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      { index: true, loader: loadFromServer },
      {
        path: APP_PAGE_PATHS.auth,
        lazy: () => import("./features/auth/auth-page").then((m) => ({ Component: m.AuthPage })),
      },
      {
        path: APP_PAGE_PATHS.terms,
        lazy: () => import("./features/marketing/terms-page").then((m) => ({ Component: m.TermsPage })),
      },
      {
        path: APP_PAGE_PATHS.privacy,
        lazy: () => import("./features/marketing/privacy-page").then((m) => ({ Component: m.PrivacyPage })),
      },
      {
        path: APP_PAGE_PATHS.status,
        lazy: () => import("./features/status/status-page").then((m) => ({ Component: m.StatusPage })),
      },
      {
        path: APP_PAGE_PATHS.systemStatus,
        lazy: () =>
          import("./features/status/system-status-page").then((m) => ({ Component: m.SystemStatusPage })),
      },
      {
        path: APP_PAGE_PATHS.dashboard,
        lazy: () =>
          import("./features/dashboard/dashboard-page").then((m) => ({ Component: m.DashboardPage })),
      },
      {
        path: APP_PAGE_PATHS.analytics,
        lazy: () =>
          import("./features/analytics/analytics-page").then((m) => ({ Component: m.AnalyticsPage })),
      },
      {
        path: APP_PAGE_PATHS.taxSettings,
        lazy: () =>
          import("./features/tax/tax-settings-page").then((m) => ({ Component: m.TaxSettingsPage })),
      },
      {
        path: APP_PAGE_PATHS.taxReport,
        lazy: () =>
          import("./features/tax-reports/tax-report-page").then((m) => ({ Component: m.TaxReportPage })),
      },
      {
        path: APP_PAGE_PATHS.taxGuide,
        lazy: () =>
          import("./features/tax-reports/tax-guide-page").then((m) => ({ Component: m.TaxGuidePage })),
      },
      {
        path: APP_PAGE_PATHS.newProduct,
        lazy: () =>
          import("./features/products/new-product-page").then((m) => ({ Component: m.NewProductPage })),
      },
      {
        path: APP_PAGE_PATHS.editProduct,
        lazy: () =>
          import("./features/products/edit-product-page").then((m) => ({ Component: m.EditProductPage })),
      },
      {
        path: APP_PAGE_PATHS.settings,
        lazy: () => import("./features/settings/settings-page").then((m) => ({ Component: m.SettingsPage })),
      },
      {
        path: APP_PAGE_PATHS.discounts,
        lazy: () =>
          import("./features/discounts/discounts-page").then((m) => ({ Component: m.DiscountsPage })),
      },
      {
        path: APP_PAGE_PATHS.posts,
        lazy: () => import("./features/posts/posts-page").then((m) => ({ Component: m.PostsPage })),
      },
      {
        path: APP_PAGE_PATHS.webhooks,
        lazy: () => import("./features/webhooks/webhooks-page").then((m) => ({ Component: m.WebhooksPage })),
      },
      ...SERVER_PAGE_PATHS.map((path) => ({ path, loader: loadFromServer })),
      ...Object.keys(MOVED_PAGE_PATHS).map((path) => ({ path, loader: redirectToMovedPage })),
      {
        path: APP_PAGE_PATHS.customers,
        lazy: () =>
          import("./features/audience/customers-page").then((m) => ({ Component: m.CustomersPage })),
      },
      {
        path: APP_PAGE_PATHS.emailCustomers,
        lazy: () =>
          import("./features/audience/email-customers-page").then((m) => ({
            Component: m.EmailCustomersPage,
          })),
      },
      {
        path: APP_PAGE_PATHS.members,
        lazy: () => import("./features/members/members-page").then((m) => ({ Component: m.MembersPage })),
      },
      {
        path: APP_PAGE_PATHS.invoices,
        lazy: () => import("./features/invoices/invoices-page").then((m) => ({ Component: m.InvoicesPage })),
      },
      {
        path: APP_PAGE_PATHS.dispute,
        lazy: () => import("./features/disputes/dispute-page").then((m) => ({ Component: m.DisputePage })),
      },
      {
        path: APP_PAGE_PATHS.library,
        lazy: () => import("./features/library/library-page").then((m) => ({ Component: m.LibraryPage })),
      },
      {
        path: APP_PAGE_PATHS.operatorOverview,
        lazy: () => import("./features/operator/overview-page").then((m) => ({ Component: m.OverviewPage })),
      },
      {
        path: APP_PAGE_PATHS.operatorSellers,
        lazy: () => import("./features/operator/sellers-page").then((m) => ({ Component: m.SellersPage })),
      },
      {
        path: APP_PAGE_PATHS.operatorSeller,
        lazy: () => import("./features/operator/seller-page").then((m) => ({ Component: m.SellerPage })),
      },
      {
        path: APP_PAGE_PATHS.operatorAppeals,
        lazy: () => import("./features/operator/appeals-page").then((m) => ({ Component: m.AppealsPage })),
      },
      {
        path: APP_PAGE_PATHS.standing,
        lazy: () => import("./features/standing/standing-page").then((m) => ({ Component: m.StandingPage })),
      },
      {
        path: APP_PAGE_PATHS.storeImport,
        lazy: () =>
          import("./features/store-import/store-import-page").then((m) => ({ Component: m.StoreImportPage })),
      },
      {
        path: APP_PAGE_PATHS.storeImportOne,
        lazy: () =>
          import("./features/store-import/store-import-page").then((m) => ({ Component: m.StoreImportPage })),
      },
      {
        path: APP_PAGE_PATHS.enforcementPolicy,
        lazy: () =>
          import("./features/marketing/enforcement-policy-page").then((m) => ({
            Component: m.EnforcementPolicyPage,
          })),
      },
      {
        path: APP_PAGE_PATHS.operatorAudit,
        lazy: () => import("./features/operator/audit-log-page").then((m) => ({ Component: m.AuditLogPage })),
      },
      {
        path: APP_PAGE_PATHS.operatorReports,
        lazy: () =>
          import("./features/reports/operator-reports-page").then((m) => ({
            Component: m.OperatorReportsPage,
          })),
      },
      {
        path: APP_PAGE_PATHS.operatorReport,
        lazy: () =>
          import("./features/reports/operator-report-page").then((m) => ({
            Component: m.OperatorReportPage,
          })),
      },
      {
        path: APP_PAGE_PATHS.sellerReports,
        lazy: () =>
          import("./features/reports/seller-reports-page").then((m) => ({ Component: m.SellerReportsPage })),
      },
      {
        path: APP_PAGE_PATHS.sellerReport,
        lazy: () =>
          import("./features/reports/seller-report-page").then((m) => ({ Component: m.SellerReportPage })),
      },
      {
        path: "*",
        lazy: () => import("./features/errors/not-found-page").then((m) => ({ Component: m.NotFoundPage })),
      },
    ],
  },
]);
