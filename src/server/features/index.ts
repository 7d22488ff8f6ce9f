import { analyticsFeature } from "./analytics/feature";
import { audienceFeature } from "./audience/feature";
import { authFeature } from "./auth/feature";
import { billingFeature } from "./billing/feature";
import { checkoutFeature } from "./checkout/feature";
import { devMailboxFeature } from "./dev-mailbox/feature";
import { discountsFeature } from "./discounts/feature";
import { downloadsFeature } from "./downloads/feature";
import { embedFeature } from "./embed/feature";
import type { Feature } from "./feature";
import { licensesFeature } from "./licenses/feature";
import { ordersFeature } from "./orders/feature";
import { payoutsFeature } from "./payouts/feature";
import { pdfStampsFeature } from "./pdf-stamps/feature";
import { productsFeature } from "./products/feature";
import { publicPagesFeature } from "./public-pages/feature";
import { realtimeFeature } from "./realtime/feature";
import { refundsFeature } from "./refunds/feature";
import { sellerApiFeature } from "./seller-api/feature";
import { sellerWebhooksFeature } from "./seller-webhooks/feature";
import { statusFeature } from "./status/feature";
import { storefrontFeature } from "./storefront/feature";
import { uploadsFeature } from "./uploads/feature";
import { stripeWebhooksFeature } from "./webhooks/feature";

/**
 * Every feature of the server, each registering itself (routes, jobs, Stripe event handlers) through
 * its `feature.ts`. A new feature is a room of its own and one line here (docs/adding-a-feature.md).
 */
export const FEATURES: readonly Feature[] = [
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
  analyticsFeature,
  discountsFeature,
  pdfStampsFeature,
  licensesFeature,
  checkoutFeature,
  ordersFeature,
  refundsFeature,
  sellerApiFeature,
  stripeWebhooksFeature,
  sellerWebhooksFeature,
  devMailboxFeature,
  embedFeature,
  publicPagesFeature,
  audienceFeature,
];
