/**
 * What the audience room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export type { BuyerEmailDeps, BuyerLinks } from "./email-batches";
export { EMAIL_BATCH_SIZE, enqueueBuyerEmails } from "./email-batches";
export { audienceFeature } from "./feature";
export { sellerName } from "./send-broadcast";
export {
  notUnsubscribed,
  unsubscribeHeaders,
  unsubscribeKey,
  unsubscribePath,
  unsubscribeToken,
} from "./unsubscribe";
