import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type AppealBody, standingSchema } from "../../../contracts/enforcement";
import { api } from "../../lib/api";

const standingKey = ["standing"] as const;

/** The signed-in seller's own standing (GET /api/standing). */
export function useStanding() {
  return useQuery({
    queryKey: standingKey,
    queryFn: ({ signal }) => api("/api/standing", { schema: standingSchema, signal }),
  });
}

export function useFileAppeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppealBody) =>
      api("/api/standing/appeals", { method: "POST", body, schema: standingSchema }),
    onSuccess: (standing) => queryClient.setQueryData(standingKey, standing),
  });
}
