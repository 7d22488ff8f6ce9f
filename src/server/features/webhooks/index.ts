/**
 * What the webhooks room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export { stripeWebhooksFeature } from "./feature";
export { addStripeEventHandlers, type EventHandler } from "./process-event";
