import { queryOptions, useMutation } from "@tanstack/react-query";
import { libraryResponseSchema } from "../../../contracts/orders";
import { postEmailsSchema } from "../../../contracts/posts";
import { redirectSchema } from "../../../contracts/seller";
import { api } from "../../lib/api";

/** The buyer's purchases: by the signed link of a receipt, or of the signed-in account's email. */
export function libraryQuery(token: string | null) {
  return queryOptions({
    queryKey: ["buyer", "library", token ?? "account"] as const,
    queryFn: ({ signal }) =>
      api(token ? `/api/library?token=${encodeURIComponent(token)}` : "/api/library/me", {
        schema: libraryResponseSchema,
        signal,
      }),
  });
}

/** Manage membership: Stripe's billing portal on the seller's account, for the library link's holder. */
export function useManageMembership() {
  return useMutation({
    mutationFn: ({ membershipId, token }: { membershipId: string; token: string }) =>
      api(`/api/library/memberships/${encodeURIComponent(membershipId)}/portal`, {
        method: "POST",
        body: { token },
        schema: redirectSchema,
      }),
  });
}

/** "Email me new posts", on or off, for one membership of the library link's holder. */
export function usePostEmails() {
  return useMutation({
    mutationFn: ({
      membershipId,
      token,
      enabled,
    }: {
      membershipId: string;
      token: string;
      enabled: boolean;
    }) =>
      api(`/api/library/memberships/${encodeURIComponent(membershipId)}/post-emails`, {
        method: "POST",
        body: { token, enabled },
        schema: postEmailsSchema,
      }),
  });
}
