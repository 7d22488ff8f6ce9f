import { queryOptions, useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { LOCALE_PARAM, type Locale } from "../../../contracts/i18n/locales";
import { type BillingInterval, membershipChangePreviewSchema } from "../../../contracts/memberships";
import { libraryResponseSchema } from "../../../contracts/orders";
import { postEmailsSchema } from "../../../contracts/posts";
import { redirectSchema } from "../../../contracts/seller";
import { api } from "../../lib/api";

/**
 * The buyer's purchases: by the signed link of a receipt, or of the signed-in account's email. The
 * answer says the library's language (`locale`), which the server negotiates as for every buyer page;
 * `lang` is the page's `?lang=` (the language switcher's choice), which the server also remembers.
 * Without `lang` its key is the prefix of every language's, so one invalidation reloads them all.
 */
export function libraryQuery(token: string | null, lang?: Locale) {
  const query = new URLSearchParams();
  if (token) query.set("token", token);
  if (lang) query.set(LOCALE_PARAM, lang);
  const search = query.toString() ? `?${query}` : "";
  const base = ["buyer", "library", token ?? "account"] as const;
  return queryOptions({
    queryKey: lang ? [...base, lang] : base,
    queryFn: ({ signal }) =>
      api(`${token ? "/api/library" : "/api/library/me"}${search}`, {
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

/** A switch the member chose: the tier and the billing interval, authorized by the library link. */
export type MembershipChangeRequest = {
  membershipId: string;
  token: string;
  tierId: string;
  interval: BillingInterval;
};

const changePath = (membershipId: string, step: "change-preview" | "change") =>
  `/api/library/memberships/${encodeURIComponent(membershipId)}/${step}`;

/** What the switch costs now, as Stripe prorates it: nothing changes yet. */
export function previewMembershipChange({ membershipId, token, tierId, interval }: MembershipChangeRequest) {
  return api(changePath(membershipId, "change-preview"), {
    method: "POST",
    body: { token, tierId, interval },
    schema: membershipChangePreviewSchema,
  });
}

/** The switch, billed as the preview showed: the same proration moment (answers 204). */
export async function confirmMembershipChange({
  membershipId,
  token,
  tierId,
  interval,
  prorationDate,
}: MembershipChangeRequest & { prorationDate: number }): Promise<void> {
  await api(changePath(membershipId, "change"), {
    method: "POST",
    body: { token, tierId, interval, prorationDate },
    schema: z.unknown(),
  });
}

export function useMembershipChangePreview() {
  return useMutation({ mutationFn: previewMembershipChange });
}

export function useConfirmMembershipChange() {
  return useMutation({ mutationFn: confirmMembershipChange });
}
