/**
 * What the billing room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { billingFeature } from "./feature";
export { planAccess } from "./plan-standing";
export { assertCanManageProducts, assertHasActivePlan } from "./seller-readiness";
export { sellerStatus } from "./seller-status";
export type { PublicSeller } from "./seller-visibility";
export { findPublicSeller } from "./seller-visibility";
