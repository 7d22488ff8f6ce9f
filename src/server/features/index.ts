import { analyticsFeature } from "./analytics";
import { audienceFeature } from "./audience";
import { authFeature } from "./auth";
import { billingFeature } from "./billing";
import { checkoutFeature } from "./checkout";
import { checkoutRecoveryFeature } from "./checkout-recovery";
import { devMailboxFeature } from "./dev-mailbox";
import { discountsFeature } from "./discounts";
import { disputesFeature } from "./disputes";
import { downloadsFeature } from "./downloads";
import { embedFeature } from "./embed";
import { enforcementFeature } from "./enforcement";
import type { Feature } from "./feature";
import { invoicesFeature } from "./invoices";
import { licensesFeature } from "./licenses";
import { membershipsFeature } from "./memberships";
import { operationsFeature } from "./operations";
import { operatorFeature } from "./operator";
import { ordersFeature } from "./orders";
import { payoutsFeature } from "./payouts";
import { pdfStampsFeature } from "./pdf-stamps";
import { postsFeature } from "./posts";
import { productsFeature } from "./products";
import { publicPagesFeature } from "./public-pages";
import { realtimeFeature } from "./realtime";
import { refundsFeature } from "./refunds";
import { reportsFeature } from "./reports";
import { sellerApiFeature } from "./seller-api";
import { sellerWebhooksFeature } from "./seller-webhooks";
import { statusFeature } from "./status";
import { storeCurrencyFeature } from "./store-currency";
import { storeExportFeature } from "./store-export";
import { storeImportFeature } from "./store-import";
import { storefrontFeature } from "./storefront";
import { taxFeature } from "./tax";
import { taxReportsFeature } from "./tax-reports";
import { uploadsFeature } from "./uploads";
import { stripeWebhooksFeature } from "./webhooks";

/**
 * Every feature of the server, each registering itself (routes, jobs, Stripe event handlers) through
 * its `feature.ts`. A new feature is a room of its own and one line here (docs/adding-a-feature.md).
 */
export const FEATURES: readonly Feature[] = [
  // First: its request metrics hook sees every route.
  operationsFeature,
  authFeature,
  statusFeature,
  billingFeature,
  payoutsFeature,
  realtimeFeature,
  // Before uploads: it gives the local storage's download links their gate.
  downloadsFeature,
  uploadsFeature,
  productsFeature,
  storefrontFeature,
  storeCurrencyFeature,
  analyticsFeature,
  discountsFeature,
  pdfStampsFeature,
  licensesFeature,
  taxFeature,
  checkoutFeature,
  checkoutRecoveryFeature,
  ordersFeature,
  membershipsFeature,
  disputesFeature,
  refundsFeature,
  sellerApiFeature,
  stripeWebhooksFeature,
  sellerWebhooksFeature,
  devMailboxFeature,
  embedFeature,
  publicPagesFeature,
  audienceFeature,
  postsFeature,
  taxReportsFeature,
  invoicesFeature,
  operatorFeature,
  reportsFeature,
  enforcementFeature,
  storeImportFeature,
  storeExportFeature,
];
