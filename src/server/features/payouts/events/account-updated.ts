import type Stripe from "stripe";
import type { EventHandler } from "../../webhooks";

/** Connect `account.updated`: onboarding is complete when Stripe says charges and details are in. */
export function accountUpdatedHandler(stripe: Stripe): EventHandler {
  return async (event) => {
    const accountId = event.account ?? (event.data.object as Stripe.Account).id;
    // Re-read so an older event delivered late cannot undo a newer state.
    const account = await stripe.accounts.retrieve(accountId);
    const complete = Boolean(account.charges_enabled && account.details_submitted);
    return async (trx, announce, now) => {
      const updated = await trx
        .updateTable("profiles")
        .set({ stripe_connect_onboarding_complete: complete, updated_at: now })
        .where("stripe_connect_account_id", "=", accountId)
        .returning("id")
        .executeTakeFirst();
      if (updated) announce(updated.id, { type: "payouts.changed" });
    };
  };
}
