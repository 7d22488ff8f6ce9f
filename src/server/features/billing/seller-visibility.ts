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
  /**
   * An operator's restriction or suspension in force (docs/operator.md, "Enforcement"): either stops
   * sales; a suspension also takes the pages off (`pagesPublic` false) and may stop buyers' downloads.
   */
  enforcement: "restricted" | "suspended" | null;
  downloadsRevoked: boolean;
  /** The store's new address, when the creator moved it (its pages redirect there). */
  movedTo: string | null;
}

/** The seller row behind every public page (compiled once: see queryTemplate). */
const publicSellerQuery = queryTemplate((db, params: { sellerId: string }) =>
  db
    .selectFrom("profiles")
    .leftJoin("subscriptions", "subscriptions.user_id", "profiles.id")
    .leftJoin("store_tax_settings", "store_tax_settings.seller_id", "profiles.id")
    // At most one restriction or suspension in force (a partial unique index): one indexed row or none.
    .leftJoin("enforcement_actions", (join) =>
      join
        .onRef("enforcement_actions.seller_id", "=", "profiles.id")
        .on("enforcement_actions.lifted_at", "is", null)
        .on("enforcement_actions.kind", "in", ["restrict", "suspend"]),
    )
    .select([
      "enforcement_actions.kind as enforcement_kind",
      "enforcement_actions.revoke_downloads",
      "profiles.id",
      "profiles.store_name",
      "profiles.store_tagline",
      "profiles.store_description",
      "profiles.profile_picture_url",
      "profiles.stripe_connect_onboarding_complete",
      "profiles.moved_to",
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
  const enforcement =
    row.enforcement_kind === "suspend"
      ? "suspended"
      : row.enforcement_kind === "restrict"
        ? "restricted"
        : null;
  return {
    id: row.id,
    storeName: row.store_name,
    storeTagline: row.store_tagline,
    storeDescription: row.store_description,
    pictureUrl: row.profile_picture_url,
    pagesPublic: access.pagesPublic && enforcement !== "suspended",
    canSell: access.canSell && row.stripe_connect_onboarding_complete && enforcement === null,
    planAllowsSales: access.canSell && enforcement === null,
    taxNote:
      row.collect_tax && row.stripe_tax_status === "active"
        ? TAX_PRICE_NOTES[row.tax_behavior ?? "exclusive"]
        : null,
    enforcement,
    downloadsRevoked: enforcement === "suspended" && row.revoke_downloads === true,
    movedTo: row.moved_to,
  };
}
