import { sql } from "kysely";
import {
  hasMembershipAccess,
  MEMBERSHIP_STATUS_LABELS,
  membershipStatusOf,
} from "../../../contracts/memberships";
import { type LibraryMembership, PURCHASE_RULES } from "../../../contracts/orders";
import { renderPostMarkup } from "../../../contracts/post-markup";
import { type LibraryPost, POST_LIMITS } from "../../../contracts/posts";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import type { Database } from "../../db/database";
import { type PurchaseRow, purchaseQuery, toBuyerPurchase } from "./buyer-purchase";

interface TierPost {
  tierId: string;
  post: Omit<LibraryPost, "attachments">;
  attachments: Array<{ id: string; name: string; sizeBytes: number | null }>;
}

/**
 * The published posts of these tiers, newest first, at most 50 per tier, each rendered once (the
 * posts' markup to escaped HTML), with their attached files. Two reads whatever the number of tiers.
 */
async function postsOfTiers(db: Database, tierIds: string[]): Promise<TierPost[]> {
  if (tierIds.length === 0) return [];
  const ranked = db
    .selectFrom("membership_post_tiers as pt")
    .innerJoin("membership_posts as p", "p.id", "pt.post_id")
    .select([
      "pt.tier_id",
      "p.id",
      "p.title",
      "p.body",
      "p.published_at",
      sql<number>`row_number() over (partition by pt.tier_id order by p.published_at desc, p.id desc)`.as(
        "rank",
      ),
    ])
    .where("pt.tier_id", "in", tierIds)
    .where("p.published_at", "is not", null);
  const rows = await db
    .selectFrom(ranked.as("ranked"))
    .selectAll()
    .where("rank", "<=", POST_LIMITS.libraryPosts)
    .orderBy("published_at", "desc")
    .orderBy("id", "desc")
    .execute();
  if (rows.length === 0) return [];
  const files = await db
    .selectFrom("membership_post_files as pf")
    .innerJoin("product_files", "product_files.id", "pf.product_file_id")
    .innerJoin("uploads", "uploads.id", "product_files.upload_id")
    .select(["pf.post_id", "product_files.id", "product_files.display_name", "uploads.size_bytes"])
    .where("pf.post_id", "in", [...new Set(rows.map((row) => row.id))])
    .orderBy("pf.position")
    .execute();
  const rendered = new Map<string, TierPost["post"]>();
  return rows.map((row) => {
    let post = rendered.get(row.id);
    if (!post) {
      post = {
        id: row.id,
        title: row.title,
        html: renderPostMarkup(row.body),
        publishedAt: row.published_at!.toISOString(),
      };
      rendered.set(row.id, post);
    }
    return {
      tierId: row.tier_id,
      post,
      attachments: files
        .filter((file) => file.post_id === row.id)
        .map((file) => ({
          id: file.id,
          name: file.display_name,
          sizeBytes: file.size_bytes === null ? null : Number(file.size_bytes),
        })),
    };
  });
}

/** A membership's posts, each attachment with its downloads left in the period it is downloaded through. */
function postsOf(tierPosts: TierPost[], tierId: string, period: PurchaseRow | undefined): LibraryPost[] {
  return tierPosts
    .filter((entry) => entry.tierId === tierId)
    .map((entry) => ({
      ...entry.post,
      attachments: entry.attachments.map((attachment) => {
        const counted = period?.files.find((file) => file.id === attachment.id);
        return {
          ...attachment,
          downloadsRemaining: counted
            ? Math.max(0, PURCHASE_RULES.maxDownloads - counted.downloadsUsed)
            : null,
        };
      }),
    }));
}

/**
 * The memberships of an email, newest first, each with its latest period (the order of its latest paid
 * invoice: that period's files and downloads) and, while it gives access, the creator's posts to its
 * tier. Four reads at most, whatever the number of memberships.
 */
export async function libraryMemberships(
  db: Database,
  linkKey: string,
  email: string,
  now: Date,
): Promise<LibraryMembership[]> {
  const memberships = await db
    .selectFrom("memberships")
    .leftJoin("profiles", "profiles.id", "memberships.seller_id")
    .selectAll("memberships")
    .select("profiles.store_name")
    .where(sql<string>`lower(memberships.customer_email)`, "=", email.toLowerCase())
    .orderBy("memberships.created_at", "desc")
    .limit(200)
    .execute();
  if (memberships.length === 0) return [];
  const periods = await purchaseQuery(db)
    .where(
      "orders.membership_id",
      "in",
      memberships.map((membership) => membership.id),
    )
    .orderBy("orders.created_at", "desc")
    .execute();
  // Posts only while the membership gives access (the one rule), of the member's own tier.
  const readable = memberships.filter(
    (membership) => membership.tier_id !== null && hasMembershipAccess(membership, now),
  );
  const tierPosts = await postsOfTiers(db, [...new Set(readable.map((membership) => membership.tier_id!))]);
  const tiers = await switchableTiers(db, memberships);
  return memberships.map((membership) => {
    const latest = periods.find((period) => period.membership_id === membership.id);
    const status = membershipStatusOf({
      status: membership.status,
      cancelAtPeriodEnd: membership.cancel_at_period_end,
    });
    return {
      id: membership.id,
      productId: membership.product_id,
      productTitle: membership.product_title,
      sellerName: membership.store_name ?? STORE_FALLBACK_NAME,
      tierName: membership.tier_name,
      interval: membership.billing_interval,
      amountCents: membership.amount_cents,
      status,
      statusLabel: MEMBERSHIP_STATUS_LABELS[status],
      currentPeriodEnd: (membership.ended_at ?? membership.current_period_end).toISOString(),
      trialEnd: membership.trial_end?.toISOString() ?? null,
      hasAccess: hasMembershipAccess(membership, now),
      period: latest ? toBuyerPurchase(latest, linkKey, now) : null,
      posts: readable.includes(membership) ? postsOf(tierPosts, membership.tier_id!, latest) : [],
      postEmails: membership.post_emails,
      tierId: membership.tier_id,
      // Only a live, paid or trialing membership switches (change-membership.ts refuses the rest too),
      // and only to a tier priced in the member's currency (a subscription's currency never changes).
      switchableTiers:
        ["active", "trialing"].includes(membership.status) && membership.product_id
          ? tiers.flatMap((tier) => {
              const open = !tier.closed || tier.id === membership.tier_id;
              if (tier.product_id !== membership.product_id || !open) return [];
              const amounts = tierAmountsIn(tier, membership.currency);
              return amounts ? [{ id: tier.id, name: tier.name, ...amounts }] : [];
            })
          : [],
    };
  });
}

type SwitchableTier = Awaited<ReturnType<typeof switchableTiers>>[number];

/** A tier's prices in `currency`: its own in the store currency, else its fixed price there, else none. */
function tierAmountsIn(tier: SwitchableTier, currency: string) {
  if (currency === tier.store_currency) {
    return { monthlyPriceCents: tier.monthly_price_cents, yearlyPriceCents: tier.yearly_price_cents };
  }
  const other = tier.prices?.find((price) => price.currency === currency);
  return other ? { monthlyPriceCents: other.monthly, yearlyPriceCents: other.yearly } : undefined;
}

/** The tiers (not removed) of these memberships' products, in order, with their prices in every currency: one read. */
function switchableTiers(db: Database, memberships: { product_id: string | null }[]) {
  const productIds = [
    ...new Set(memberships.flatMap((membership) => (membership.product_id ? [membership.product_id] : []))),
  ];
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("membership_tiers")
    .select(["id", "name", "product_id", "monthly_price_cents", "yearly_price_cents", "closed"])
    .select(({ ref }) => [
      sql<string>`(select p.store_currency from profiles p where p.id = ${ref("membership_tiers.seller_id")})`.as(
        "store_currency",
      ),
      sql<{ currency: string; monthly: number; yearly: number | null }[] | null>`(
        select json_agg(json_build_object('currency', tp.currency, 'monthly', tp.monthly_cents, 'yearly', tp.yearly_cents))
        from membership_tier_currency_prices tp where tp.tier_id = ${ref("membership_tiers.id")}
      )`.as("prices"),
    ])
    .where("product_id", "in", productIds)
    .where("removed_at", "is", null)
    .orderBy("position")
    .execute();
}
