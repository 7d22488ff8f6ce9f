/**
 * What the store-export room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). The seller API pages through the export's readers with exportPage.
 */
export { exportPage } from "./export-page";
export { storeExportFeature } from "./feature";
