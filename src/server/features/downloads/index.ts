/**
 * What the downloads room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */

export type { DownloadDeps } from "./download-link";
export { describeDownload, startCountedDownload } from "./download-link";
export { downloadsFeature } from "./feature";
export { resendDownloadLink } from "./resend-link";
