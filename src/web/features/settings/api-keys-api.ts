import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiKeyListSchema, apiRequestLogSchema, createdApiKeySchema } from "../../../contracts/api-keys";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

export const apiKeyKeys = {
  keys: (userId: string) => [...sellerKeys.all(userId), "api-keys"] as const,
  requests: (userId: string) => [...sellerKeys.all(userId), "api-keys", "requests"] as const,
};

export function useApiKeys(userId: string) {
  return useQuery({
    queryKey: apiKeyKeys.keys(userId),
    queryFn: ({ signal }) => api("/api/api-keys", { schema: apiKeyListSchema, signal }),
  });
}

export function useApiRequests(userId: string) {
  return useQuery({
    queryKey: apiKeyKeys.requests(userId),
    queryFn: ({ signal }) => api("/api/api-keys/requests", { schema: apiRequestLogSchema, signal }),
  });
}

/** Refreshes the keys and, under the same prefix, the request log. */
function useRefreshKeys(userId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.keys(userId) });
}

export function useCreateApiKey(userId: string) {
  const refresh = useRefreshKeys(userId);
  return useMutation({
    mutationFn: (name: string) =>
      api("/api/api-keys", { method: "POST", body: { name }, schema: createdApiKeySchema }),
    onSuccess: refresh,
  });
}

export function useRevokeApiKey(userId: string) {
  const refresh = useRefreshKeys(userId);
  return useMutation({
    mutationFn: (id: string) =>
      api(`/api/api-keys/${encodeURIComponent(id)}`, { method: "DELETE", schema: z.unknown() }),
    onSettled: refresh,
  });
}
