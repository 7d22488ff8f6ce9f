/**
 * What the payouts room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { enqueueAccountRename } from "./connected-account-name";
export { payoutsFeature } from "./feature";
