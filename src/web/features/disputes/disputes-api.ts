import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type DisputeDraft,
  type DisputeEvidence,
  type DisputeView,
  disputeViewSchema,
} from "../../../contracts/disputes";
import { api } from "../../lib/api";
import { sellerKeys } from "../../lib/seller-status";

/** Under the sales key: a dispute's event (the realtime `sales.changed`) refreshes the open page. */
const disputeKey = (userId: string, disputeId: string) =>
  [...sellerKeys.sales(userId), "dispute", disputeId] as const;
const path = (disputeId: string) => `/api/disputes/${encodeURIComponent(disputeId)}`;

export function useDispute(userId: string, disputeId: string) {
  return useQuery({
    queryKey: disputeKey(userId, disputeId),
    queryFn: ({ signal }) => api(path(disputeId), { schema: disputeViewSchema, signal, quiet: true }),
    retry: false,
  });
}

function useDisputeMutation<Input>(
  userId: string,
  disputeId: string,
  call: (input: Input) => Promise<DisputeView>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (view) => queryClient.setQueryData(disputeKey(userId, disputeId), view),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sellerKeys.sales(userId) }),
  });
}

/** Saves the evidence draft and/or the auto-submit choice. */
export function useSaveDispute(userId: string, disputeId: string) {
  return useDisputeMutation(userId, disputeId, (draft: DisputeDraft) =>
    api(path(disputeId), { method: "PATCH", body: draft, schema: disputeViewSchema }),
  );
}

/** Submits the evidence (with the edits on the page) to Stripe. */
export function useSubmitDispute(userId: string, disputeId: string) {
  return useDisputeMutation(userId, disputeId, (evidence: DisputeEvidence) =>
    api(`${path(disputeId)}/submit`, { method: "POST", body: { evidence }, schema: disputeViewSchema }),
  );
}
