import type Stripe from "stripe";
import type { EventHandler } from "../../webhooks";
import { readStripeTax, recordStripeTax } from "../stripe-tax";

/**
 * Connect `tax.settings.updated`: the seller changed Stripe Tax on their account (the head office,
 * say). Read back from Stripe, so a late event cannot undo a newer state; the seller's open tax page
 * refreshes and product pages pick up whether tax is collected.
 */
export function taxSettingsUpdatedHandler(stripe: Stripe): EventHandler {
  return async (event) => {
    const accountId = event.account;
    if (!accountId) return undefined;
    const state = await readStripeTax(stripe, accountId);
    return async (trx, announce, now) => {
      const seller = await trx
        .selectFrom("profiles")
        .select("id")
        .where("stripe_connect_account_id", "=", accountId)
        .executeTakeFirst();
      if (!seller) return;
      await recordStripeTax(trx, seller.id, state, now);
      announce(seller.id, { type: "tax.changed" });
      announce(seller.id, { type: "public-pages.changed" });
    };
  };
}
