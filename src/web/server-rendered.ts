/**
 * The one seam between the server and the web app: the components and helpers the server renders its
 * buyer pages with (react-dom/server, never hydrated), and the list of the app's page paths. The server
 * imports nothing else from src/web (biome.json's restricted imports check it).
 */
export { type Creator, CreatorPageShell, creatorOf } from "./components/layout/creator-page-shell";
export { PublicPageShell } from "./components/layout/public-page-shell";
export { Button } from "./components/ui/button";
export { UnsubscribePage, type UnsubscribeState } from "./features/audience/unsubscribe-page";
export { RecoveryPage, type RecoveryState } from "./features/checkout/recovery-page";
export { type OrderLookup, SuccessPage } from "./features/checkout/success-page";
export { DownloadPage, type DownloadState } from "./features/downloads/download-page";
export type { ResendAnswer } from "./features/downloads/resend-link-form";
export { EmbedProductNotFound, EmbedProductPage } from "./features/embed/embed-product-page";
export {
  BillingDetailsPage,
  type BillingDetailsState,
  type BillingFields,
} from "./features/invoices/billing-details-page";
export { LandingPage } from "./features/marketing/landing-page";
export { FreeClaimSentPage } from "./features/products/free-claim-sent-page";
export { localPriceLabel } from "./features/products/membership-price";
export { ProductPage } from "./features/products/product-page";
export type { PurchaseAnswer } from "./features/products/purchase-panel";
export { stockNotice } from "./features/products/stock";
export {
  ReportFormPage,
  type ReportFormState,
  ReportRefusedPage,
  ReportSentPage,
  type ReportTarget,
} from "./features/reports/report-form-page";
export { StoreNotFoundPage, StorePage } from "./features/storefront/store-page";
export { I18nProvider, useI18n } from "./lib/i18n";
export { isPagePath, movedPageUrl } from "./route-paths";
