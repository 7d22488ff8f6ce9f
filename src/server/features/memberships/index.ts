/**
 * What the memberships room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { membershipsFeature } from "./feature";
export type { MemberActionDeps } from "./member-actions";
export { cancelMembership } from "./member-actions";
export { getMember, membersPage } from "./members";
export { membershipCoupon } from "./membership-coupons";
export { membershipMetrics } from "./membership-metrics";
export { tierPrice } from "./tier-prices";
