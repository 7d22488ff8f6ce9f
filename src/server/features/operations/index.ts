/**
 * What the operations room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { operationsFeature } from "./feature";
export type { OperationsDeps } from "./operations-deps";
