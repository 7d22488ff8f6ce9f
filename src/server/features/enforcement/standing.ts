import type { Appeal, EnforcementAction, SellerState, Standing } from "../../../contracts/enforcement";
import { ENFORCEMENT_MESSAGES } from "../../../contracts/enforcement";
import type { Database } from "../../db/database";
import { AppError } from "../../http/errors";

/** The restriction or suspension in force, if any (at most one: a partial unique index). */
export async function sellerState(db: Database, sellerId: string): Promise<SellerState> {
  const row = await db
    .selectFrom("enforcement_actions")
    .select("kind")
    .where("seller_id", "=", sellerId)
    .where("lifted_at", "is", null)
    .where("kind", "in", ["restrict", "suspend"])
    .executeTakeFirst();
  return row?.kind === "suspend" ? "suspended" : row?.kind === "restrict" ? "restricted" : "good";
}

/**
 * Creating a product needs a store in good standing: a restricted or suspended seller can't add any
 * (existing products stay editable, so what was reported can be fixed).
 */
export async function assertMayAddProducts(db: Database, sellerId: string): Promise<void> {
  const state = await sellerState(db, sellerId);
  if (state !== "good") {
    throw new AppError(
      "seller_restricted",
      403,
      state === "suspended" ? ENFORCEMENT_MESSAGES.suspended : ENFORCEMENT_MESSAGES.restricted,
    );
  }
}

/** Whether a suspension stopped buyers' downloads from this seller. */
export async function downloadsRevoked(db: Database, sellerId: string): Promise<boolean> {
  const row = await db
    .selectFrom("enforcement_actions")
    .select("id")
    .where("seller_id", "=", sellerId)
    .where("lifted_at", "is", null)
    .where("kind", "=", "suspend")
    .where("revoke_downloads", "=", true)
    .executeTakeFirst();
  return row !== undefined;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A seller's standing: what is in force and what happened before, each action with its appeals. */
export async function readStanding(db: Database, sellerId: string): Promise<Standing> {
  const actions = await db
    .selectFrom("enforcement_actions")
    .leftJoin("products", "products.id", "enforcement_actions.product_id")
    .select([
      "enforcement_actions.id",
      "enforcement_actions.kind",
      "enforcement_actions.product_id",
      "products.title as product_title",
      "enforcement_actions.reason",
      "enforcement_actions.report_id",
      "enforcement_actions.revoke_downloads",
      "enforcement_actions.created_at",
      "enforcement_actions.lifted_at",
      "enforcement_actions.lifted_reason",
    ])
    .where("enforcement_actions.seller_id", "=", sellerId)
    .orderBy("enforcement_actions.created_at", "desc")
    .orderBy("enforcement_actions.id", "desc")
    .limit(200)
    .execute();
  const appeals = await db
    .selectFrom("enforcement_appeals")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .orderBy("created_at", "desc")
    .limit(500)
    .execute();
  const appealsOf = new Map<string, Appeal[]>();
  for (const appeal of appeals) {
    const list = appealsOf.get(appeal.action_id) ?? [];
    list.push({
      id: appeal.id,
      actionId: appeal.action_id,
      body: appeal.body,
      status: appeal.status,
      createdAt: appeal.created_at.toISOString(),
      answeredAt: iso(appeal.answered_at),
      answerReason: appeal.answer_reason,
    });
    appealsOf.set(appeal.action_id, list);
  }
  const shaped: EnforcementAction[] = actions.map((row) => ({
    id: row.id,
    kind: row.kind,
    productId: row.product_id,
    productTitle: row.product_title ?? null,
    reason: row.reason,
    reportId: row.report_id,
    revokeDownloads: row.revoke_downloads,
    createdAt: row.created_at.toISOString(),
    liftedAt: iso(row.lifted_at),
    liftedReason: row.lifted_reason,
    appeals: appealsOf.get(row.id) ?? [],
  }));
  const inForce = shaped.filter((action) => action.kind !== "warn" && action.liftedAt === null);
  const past = shaped.filter((action) => !inForce.includes(action));
  const seller = inForce.find((action) => action.kind === "suspend" || action.kind === "restrict");
  const state: SellerState =
    seller?.kind === "suspend" ? "suspended" : seller?.kind === "restrict" ? "restricted" : "good";
  return { state, inForce, past };
}
