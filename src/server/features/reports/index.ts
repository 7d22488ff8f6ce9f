/**
 * What the reports room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts).
 */
export { reportsFeature } from "./feature";
