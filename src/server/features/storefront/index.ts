/**
 * What the storefront room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { storefrontFeature } from "./feature";
export { landingPreview, previewMetaTags, previewTags, productPreview, storePreview } from "./link-preview";
export { NOT_A_VISITOR, REPEAT_VIEW_WINDOW_MS } from "./record-store-view";
export { getStorefront } from "./storefront";
