/**
 * What the analytics room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { analyticsFeature } from "./feature";
export { recordCheckoutSource } from "./sale-attribution";
export { hasSource, NO_SOURCE, sourceFieldValues, sourceOfFields, sourceOfPage } from "./visit-source";
