import { createBrowserRouter, type LoaderFunctionArgs, Outlet, ScrollRestoration } from "react-router";
import { PageSpinner } from "./components/ui/spinner";
import { ErrorScreen } from "./features/errors/error-screen";
import { useRealtimeUpdates } from "./lib/realtime";
import { useSession } from "./lib/session";

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

/** Pages the server renders (features/public-pages): the app has no code for them. */
const SERVER_PAGES = ["success", "download/:token", "product/:productId", "store/:userId"];

/**
 * A navigation inside the app to a page the server renders (a Link without reloadDocument, a
 * navigate() call) loads that page as a document; the current page stays until it arrives.
 */
function loadFromServer({ request }: LoaderFunctionArgs): Promise<never> {
  window.location.assign(request.url);
  return new Promise(() => {});
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
        path: "auth",
        lazy: () => import("./features/auth/auth-page").then((m) => ({ Component: m.AuthPage })),
      },
      {
        path: "terms",
        lazy: () => import("./features/marketing/terms-page").then((m) => ({ Component: m.TermsPage })),
      },
      {
        path: "privacy",
        lazy: () => import("./features/marketing/privacy-page").then((m) => ({ Component: m.PrivacyPage })),
      },
      {
        path: "status",
        lazy: () => import("./features/status/status-page").then((m) => ({ Component: m.StatusPage })),
      },
      {
        path: "system-status",
        lazy: () =>
          import("./features/status/system-status-page").then((m) => ({ Component: m.SystemStatusPage })),
      },
      {
        path: "dashboard",
        lazy: () =>
          import("./features/dashboard/dashboard-page").then((m) => ({ Component: m.DashboardPage })),
      },
      {
        path: "new",
        lazy: () =>
          import("./features/products/new-product-page").then((m) => ({ Component: m.NewProductPage })),
      },
      {
        path: "settings",
        lazy: () => import("./features/settings/settings-page").then((m) => ({ Component: m.SettingsPage })),
      },
      ...SERVER_PAGES.map((path) => ({ path, loader: loadFromServer })),
      {
        path: "library",
        lazy: () => import("./features/library/library-page").then((m) => ({ Component: m.LibraryPage })),
      },
      {
        path: "*",
        lazy: () => import("./features/errors/not-found-page").then((m) => ({ Component: m.NotFoundPage })),
      },
    ],
  },
]);
