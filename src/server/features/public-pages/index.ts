/**
 * What the public-pages room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { publicPagesFeature } from "./feature";
export { sendNotFoundPage } from "./not-found-page";
export type { PublicPageAssets } from "./page-assets";
export { loadPublicPageAssets } from "./page-assets";
export { renderDocument } from "./render-document";
export { sendUncached } from "./respond";
