/**
 * What the uploads room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { attachUpload } from "./attach-upload";
export type { VirusScanner } from "./clamav";
export { deleteStoredFile } from "./delete-upload";
export { uploadsFeature } from "./feature";
export type { DownloadLinkUse, FileLinkGates } from "./file-routes";
export { sendObject } from "./file-routes";
export { sweepLater, sweepNow } from "./purge-expired-uploads";
export type { UploadRow } from "./queries";
export { deleteSellerUploadRow, storageUsedQuery } from "./queries";
export {
  productFileProblem,
  type StreamedProductFile,
  storeStreamedProductFile,
} from "./store-streamed-file";
export { deleteObjectsOf } from "./stored-objects";
