import { createBrowserRouter, Outlet, ScrollRestoration } from "react-router";
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

/**
 * Every page is its own chunk, loaded when first visited. The public product and store pages are
 * rendered by the server (features/public-pages), so links to them reload the document.
 */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        index: true,
        lazy: () => import("./features/marketing/landing-page").then((m) => ({ Component: m.LandingPage })),
      },
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
      {
        path: "success",
        lazy: () => import("./features/checkout/success-page").then((m) => ({ Component: m.SuccessPage })),
      },
      {
        path: "download/:token",
        lazy: () => import("./features/downloads/download-page").then((m) => ({ Component: m.DownloadPage })),
      },
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
