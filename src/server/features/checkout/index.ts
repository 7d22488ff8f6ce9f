/**
 * What the checkout room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */

export type { CheckoutRouteDeps, LeftCheckout } from "./buyer-actions";
export { buyAgain, buyNow, claimFree, subscribe } from "./buyer-actions";
export { checkoutDeps } from "./checkout-deps";
export { checkoutFeature } from "./feature";
export { textField } from "./purchase-price";
