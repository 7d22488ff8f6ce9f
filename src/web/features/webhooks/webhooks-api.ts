import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  createdWebhookEndpointSchema,
  type WebhookEndpointInput,
  type WebhookEventType,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
  webhookSecretSchema,
} from "../../../contracts/webhooks";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

export const webhookKeys = {
  /** Under the sales key: a sale (the realtime `sales.changed`) queues deliveries. */
  all: (userId: string) => [...sellerKeys.sales(userId), "webhooks"] as const,
  endpoints: (userId: string) => [...webhookKeys.all(userId), "endpoints"] as const,
  deliveries: (userId: string, endpointId: string) =>
    [...webhookKeys.all(userId), "deliveries", endpointId] as const,
};

const sent = z.object({ id: z.string() });
const path = (endpointId: string) => `/api/webhook-endpoints/${encodeURIComponent(endpointId)}`;

export function useWebhookEndpoints(userId: string) {
  return useQuery({
    queryKey: webhookKeys.endpoints(userId),
    queryFn: ({ signal }) => api("/api/webhook-endpoints", { schema: webhookEndpointListSchema, signal }),
  });
}

/** An endpoint's deliveries, refreshed every few seconds while some are still on their way. */
export function useWebhookDeliveries(userId: string, endpointId: string) {
  return useQuery({
    queryKey: webhookKeys.deliveries(userId, endpointId),
    queryFn: ({ signal }) =>
      api(`${path(endpointId)}/deliveries`, { schema: webhookDeliveryListSchema, signal }),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === "pending") ? 3_000 : false,
  });
}

function useRefreshWebhooks(userId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all(userId) });
}

export function useAddWebhookEndpoint(userId: string) {
  const refresh = useRefreshWebhooks(userId);
  return useMutation({
    mutationFn: (input: WebhookEndpointInput) =>
      api("/api/webhook-endpoints", { method: "POST", body: input, schema: createdWebhookEndpointSchema }),
    onSuccess: refresh,
  });
}

export function useDeleteWebhookEndpoint(userId: string) {
  const refresh = useRefreshWebhooks(userId);
  return useMutation({
    mutationFn: (endpointId: string) => api(path(endpointId), { method: "DELETE", schema: z.unknown() }),
    onSettled: refresh,
  });
}

export function useRevealSecret() {
  return useMutation({
    mutationFn: (endpointId: string) => api(`${path(endpointId)}/secret`, { schema: webhookSecretSchema }),
  });
}

export function useRotateSecret() {
  return useMutation({
    mutationFn: (endpointId: string) =>
      api(`${path(endpointId)}/rotate-secret`, { method: "POST", schema: webhookSecretSchema }),
  });
}

export function useSendExampleEvent(userId: string) {
  const refresh = useRefreshWebhooks(userId);
  return useMutation({
    mutationFn: ({ endpointId, eventType }: { endpointId: string; eventType: WebhookEventType }) =>
      api(`${path(endpointId)}/examples`, { method: "POST", body: { eventType }, schema: sent }),
    onSettled: refresh,
  });
}

export function useResendDelivery(userId: string) {
  const refresh = useRefreshWebhooks(userId);
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api(`/api/webhook-deliveries/${encodeURIComponent(deliveryId)}/resend`, {
        method: "POST",
        schema: sent,
      }),
    onSettled: refresh,
  });
}
