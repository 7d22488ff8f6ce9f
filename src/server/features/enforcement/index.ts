/**
 * What the enforcement room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Public pages and checkout read a seller's or product's standing from
 * the tables themselves (billing's findPublicSeller, products' getPublicProduct) in the same query.
 */
export { enforcementFeature } from "./feature";
export { assertMayAddProducts, downloadsRevoked } from "./standing";
