/**
 * What the seller-webhooks room offers the other features: nothing else of it may be imported from outside
 * (features/feature-rooms.test.ts). Add an export here when another room needs it.
 */
export type { Resolver, WebhookNetworkPolicy } from "./address-policy";
export { sellerWebhooksFeature } from "./feature";
export type { MembershipEventData } from "./queue-events";
export { queueInvoiceWebhooks, queueMembershipWebhooks, queueSaleDisputeWebhooks } from "./queue-events";
