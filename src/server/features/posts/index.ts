/**
 * What the posts room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it. (A member's library
 * reads the posts' tables itself, in orders/library-memberships.ts: orders is below this room.)
 */
export { postsFeature } from "./feature";
