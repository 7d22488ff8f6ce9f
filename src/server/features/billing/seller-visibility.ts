import { TAX_PRICE_NOTES } from "../../../contracts/tax";
import type { Database } from "../../db/database";
import { queryTemplate } from "../../db/query-templates";
import { planAccess } from "./plan-standing";

export interface PublicSeller {
  id: string;
  storeName: string | null;
  storeTagline: string | null;
  storeDescription: string | null;
  pictureUrl: string | null;
  /** Store and product pages are public (plan active, in grace, lapsed, or canceled < 30 days ago). */
  pagesPublic: boolean;
  /** Buyers can pay: the plan allows selling and Stripe onboarding is complete. */
  canSell: boolean;
  /** The plan allows selling: enough for free products, which need no Stripe. */
  planAllowsSales: boolean;
  /** Beside prices when the store collects tax: "+ tax" or "incl. VAT where applicable". */
  taxNote: string | null;
}

/** The seller row behind every public page (compiled once: see queryTemplate). */
const publicSellerQuery = queryTemplate((db, params: { sellerId: string }) =>
  db
    .selectFrom("profiles")
    .leftJoin("subscriptions", "subscriptions.user_id", "profiles.id")
    .leftJoin("store_tax_settings", "store_tax_settings.seller_id", "profiles.id")
    .select([
      "profiles.id",
      "profiles.store_name",
      "profiles.store_tagline",
      "profiles.store_description",
      "profiles.profile_picture_url",
      "profiles.stripe_connect_onboarding_complete",
      "subscriptions.status",
      "subscriptions.past_due_since",
      "subscriptions.canceled_at",
      "store_tax_settings.collect_tax",
      "store_tax_settings.stripe_tax_status",
      "store_tax_settings.tax_behavior",
    ])
    .where("profiles.id", "=", params.sellerId),
);

/** A seller as the public sees them, with the plan rules applied. Undefined for an unknown id. */
export async function findPublicSeller(
  db: Database,
  sellerId: string,
  now: Date,
): Promise<PublicSeller | undefined> {
  const [row] = await publicSellerQuery.execute(db, { sellerId });
  if (!row) return undefined;
  const access = planAccess(
    row.status
      ? { status: row.status, past_due_since: row.past_due_since, canceled_at: row.canceled_at }
      : undefined,
    now,
  );
  return {
    id: row.id,
    storeName: row.store_name,
    storeTagline: row.store_tagline,
    storeDescription: row.store_description,
    pictureUrl: row.profile_picture_url,
    pagesPublic: access.pagesPublic,
    canSell: access.canSell && row.stripe_connect_onboarding_complete,
    planAllowsSales: access.canSell,
    taxNote:
      row.collect_tax && row.stripe_tax_status === "active"
        ? TAX_PRICE_NOTES[row.tax_behavior ?? "exclusive"]
        : null,
  };
}
