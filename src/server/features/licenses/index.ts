/**
 * What the licenses room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { licensesFeature } from "./feature";
export { licenseKeyParagraphs } from "./license-email";
export { LICENSE_VERIFY_PATH } from "./routes";
export { saleLicenseOf } from "./sale-license";
export { keyToLookUp as storedLicenseKey } from "./verify-license";
