import { z } from "zod";

/** The events a seller's endpoint can subscribe to. Subscription (plan) events are never sent. */
export const WEBHOOK_EVENT_TYPES = [
  "sale.completed",
  "sale.refunded",
  "sale.disputed",
  "sale.dispute_closed",
  "product.sold_out",
  "membership.started",
  "membership.renewed",
  "membership.payment_failed",
  "membership.canceled",
  "membership.ended",
  "invoice.issued",
] as const;
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "sale.completed": "A sale is completed",
  "sale.refunded": "A sale is refunded",
  "sale.disputed": "A buyer disputes a sale (a chargeback)",
  "sale.dispute_closed": "A sale's dispute is closed (won or lost)",
  "product.sold_out": "A limited product sells out",
  "membership.started": "A membership starts (or its trial)",
  "membership.renewed": "A membership renews (a period is paid)",
  "membership.payment_failed": "A membership's renewal payment fails",
  "membership.canceled": "A membership is set to end at its period's end",
  "membership.ended": "A membership ends",
  "invoice.issued": "An invoice or credit note is issued (or corrected)",
};

/** The dispute events (disputes feature). */
export type SaleDisputeWebhookEventType = Extract<WebhookEventType, "sale.disputed" | "sale.dispute_closed">;

/** The membership events (memberships feature). */
export type MembershipWebhookEventType = Extract<WebhookEventType, `membership.${string}`>;

export const WEBHOOK_LIMITS = {
  endpointsPerSeller: 5,
  urlMaxLength: 2000,
  /** Deliveries listed per endpoint, newest first. */
  deliveriesListed: 50,
} as const;

export const WEBHOOK_MESSAGES = {
  pageTitle: "Webhooks",
  urlRequired: "Enter the URL of your endpoint",
  urlInvalid: "Enter a full URL, like https://example.com/webhooks/flatfee",
  urlTooLong: `The URL can be at most ${WEBHOOK_LIMITS.urlMaxLength} characters`,
  urlScheme: "The URL must start with https:// or http://",
  httpsRequired: "The URL must start with https://",
  urlCredentials: "The URL can't contain a user name or password",
  privateAddress: "This address is on a private network. Webhooks can only be sent to public addresses.",
  eventsRequired: "Choose at least one event",
  tooManyEndpoints: `You can have at most ${WEBHOOK_LIMITS.endpointsPerSeller} webhook endpoints. Delete one you no longer use.`,
  endpointNotFound: "Webhook endpoint not found",
  deliveryNotFound: "Delivery not found",
  eventNotChosen: "This endpoint doesn't receive this event. Choose one of its events.",
  tooManySends: "Too many sends. Please wait a minute.",
  createdTitle: "Endpoint added",
  deletedTitle: "Endpoint deleted",
  deleteConfirmTitle: "Delete endpoint",
  deleteConfirm: "Its deliveries are deleted too, and no more events are sent to it.",
  rotatedTitle: "Signing secret rotated",
  rotated: "Deliveries are signed with the new secret from now on.",
  exampleSentTitle: "Example event queued",
  resentTitle: "Delivery queued again",
  loadFailed: "We couldn't load your webhooks.",
  deliveriesLoadFailed: "We couldn't load the deliveries.",
  /** Why a delivery failed, as the seller sees it: how our server resolves and connects stays in our logs. */
  deliveryRefused: "Not sent: the endpoint's address is not a public address we can deliver to.",
  deliveryConnectionFailed: "Not sent: the connection to the endpoint failed.",
  deliveryTimedOut: "No answer within 10 seconds.",
} as const;

export const webhookEndpointInputSchema = z.object({
  url: z
    .string({ error: WEBHOOK_MESSAGES.urlRequired })
    .trim()
    .min(1, WEBHOOK_MESSAGES.urlRequired)
    .max(WEBHOOK_LIMITS.urlMaxLength, WEBHOOK_MESSAGES.urlTooLong),
  events: z
    .array(webhookEventTypeSchema, { error: WEBHOOK_MESSAGES.eventsRequired })
    .min(1, WEBHOOK_MESSAGES.eventsRequired)
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((events) => [...new Set(events)]),
});
export type WebhookEndpointInput = z.input<typeof webhookEndpointInputSchema>;

const deliveryStatusSchema = z.enum(["pending", "succeeded", "failed"]);
export type WebhookDeliveryStatus = z.infer<typeof deliveryStatusSchema>;

/** An endpoint as the seller's page lists it; its secret is only read on demand. */
export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  createdAt: z.string(),
  /** The newest delivery's outcome, for the list at a glance. */
  lastDelivery: z
    .object({ status: deliveryStatusSchema, lastResponseStatus: z.number().int().nullable() })
    .nullable(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });

export const webhookSecretSchema = z.object({ secret: z.string().startsWith("whsec_") });

export const createdWebhookEndpointSchema = z.object({
  endpoint: webhookEndpointSchema,
  secret: z.string().startsWith("whsec_"),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventType: z.string(),
  status: deliveryStatusSchema,
  attempts: z.number().int(),
  lastResponseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** When the next try is due; null once it succeeded or failed for good. */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });

export const sendExampleEventSchema = z.object({ eventType: webhookEventTypeSchema });
