import { randomUUID } from "node:crypto";
import {
  ACTION_LABELS,
  type AppealAnswer,
  type AppealBody,
  ENFORCEMENT_MESSAGES,
  type QueuedAppeal,
  type Standing,
} from "../../../contracts/enforcement";
import { commitChange } from "../../adapters/events/commit-change";
import type { Database } from "../../db/database";
import { isUniqueViolation } from "../../db/unique-violation";
import { AppError, notFound } from "../../http/errors";
import { type Actor, recordAudit } from "../operator";
import { liftAction, recordAndTellSeller } from "./actions";
import type { EnforcementDeps } from "./enforcement-deps";
import { readStanding } from "./standing";

/**
 * A seller appeals one of their actions in force (a restriction, a suspension, a take-down): one open
 * appeal per action at a time. Another seller's action, or one no longer in force, answers 404. The
 * appeal goes to the operators' queue and into the audit log (the seller as its actor).
 */
export async function fileAppeal(
  deps: EnforcementDeps,
  seller: { id: string; email: string },
  body: AppealBody,
  now: Date,
): Promise<Standing> {
  try {
    await commitChange(deps, async (trx) => {
      const action = await trx
        .selectFrom("enforcement_actions")
        .select(["id", "kind", "product_id", "report_id"])
        .where("id", "=", body.actionId)
        .where("seller_id", "=", seller.id)
        .where("lifted_at", "is", null)
        .where("kind", "!=", "warn")
        .forUpdate()
        .executeTakeFirst();
      if (!action) throw notFound(ENFORCEMENT_MESSAGES.actionNotFound);
      const open = await trx
        .selectFrom("enforcement_appeals")
        .select("id")
        .where("action_id", "=", action.id)
        .where("status", "=", "open")
        .executeTakeFirst();
      if (open) throw new AppError("appeal_open", 409, ENFORCEMENT_MESSAGES.appealOpen);
      const id = randomUUID();
      await trx
        .insertInto("enforcement_appeals")
        .values({ id, action_id: action.id, seller_id: seller.id, body: body.body, created_at: now })
        .execute();
      await recordAudit(
        trx,
        { id: seller.id, email: seller.email },
        {
          action: "appeal.file",
          reason: body.body,
          sellerId: seller.id,
          productId: action.product_id,
          reportId: action.report_id,
          details: { appealId: id, actionId: action.id, kind: action.kind },
        },
        now,
      );
    });
  } catch (error) {
    // Two appeals sent at once: the open-appeal index lets one through.
    if (isUniqueViolation(error)) throw new AppError("appeal_open", 409, ENFORCEMENT_MESSAGES.appealOpen);
    throw error;
  }
  return readStanding(deps.db, seller.id);
}

const APPEAL_QUEUE_LIMIT = 200;

/** The operators' queue: open appeals, oldest first, each with the action it appeals. */
export async function listOpenAppeals(db: Database): Promise<QueuedAppeal[]> {
  const rows = await db
    .selectFrom("enforcement_appeals")
    .innerJoin("enforcement_actions", "enforcement_actions.id", "enforcement_appeals.action_id")
    .innerJoin("profiles", "profiles.id", "enforcement_appeals.seller_id")
    .innerJoin("user", "user.id", "enforcement_appeals.seller_id")
    .leftJoin("products", "products.id", "enforcement_actions.product_id")
    .select([
      "enforcement_appeals.id",
      "enforcement_appeals.action_id",
      "enforcement_appeals.body",
      "enforcement_appeals.status",
      "enforcement_appeals.created_at",
      "enforcement_appeals.seller_id",
      "user.email",
      "profiles.store_name",
      "enforcement_actions.kind",
      "enforcement_actions.product_id",
      "products.title as product_title",
      "enforcement_actions.reason",
      "enforcement_actions.report_id",
      "enforcement_actions.revoke_downloads",
      "enforcement_actions.created_at as action_created_at",
    ])
    .where("enforcement_appeals.status", "=", "open")
    .orderBy("enforcement_appeals.created_at")
    .orderBy("enforcement_appeals.id")
    .limit(APPEAL_QUEUE_LIMIT)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    actionId: row.action_id,
    body: row.body,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    answeredAt: null,
    answerReason: null,
    sellerId: row.seller_id,
    sellerEmail: row.email,
    storeName: row.store_name,
    action: {
      id: row.action_id,
      kind: row.kind,
      productId: row.product_id,
      productTitle: row.product_title ?? null,
      reason: row.reason,
      reportId: row.report_id,
      revokeDownloads: row.revoke_downloads,
      createdAt: row.action_created_at.toISOString(),
      liftedAt: null,
      liftedReason: null,
    },
  }));
}

/**
 * An operator answers an open appeal: reinstate (the action is lifted: the store or the product is back)
 * or uphold (it stays), with a reason either way; audited and emailed to the seller in one transaction.
 */
export async function answerAppeal(
  deps: EnforcementDeps,
  actor: Actor,
  appealId: string,
  answer: AppealAnswer,
  now: Date,
): Promise<Standing> {
  const sellerId = await commitChange(deps, async (trx, announce) => {
    const appeal = await trx
      .selectFrom("enforcement_appeals")
      .innerJoin("enforcement_actions", "enforcement_actions.id", "enforcement_appeals.action_id")
      .innerJoin("user", "user.id", "enforcement_appeals.seller_id")
      .leftJoin("products", "products.id", "enforcement_actions.product_id")
      .select([
        "enforcement_appeals.id",
        "enforcement_appeals.status",
        "enforcement_appeals.seller_id",
        "enforcement_actions.id as action_id",
        "enforcement_actions.kind",
        "enforcement_actions.product_id",
        "enforcement_actions.report_id",
        "products.title as product_title",
        "user.email",
      ])
      .where("enforcement_appeals.id", "=", appealId)
      .forUpdate("enforcement_appeals")
      .executeTakeFirst();
    if (!appeal) throw notFound(ENFORCEMENT_MESSAGES.appealNotFound);
    if (appeal.status !== "open")
      throw new AppError("appeal_answered", 409, ENFORCEMENT_MESSAGES.appealAnswered);
    const productTitle = appeal.product_title ?? "";
    if (answer.outcome === "reinstate") {
      await liftAction(trx, appeal.action_id, answer.reason, "reinstated", now);
    } else {
      await trx
        .updateTable("enforcement_appeals")
        .set({ status: "upheld", answered_at: now, answer_reason: answer.reason, answered_by: actor.email })
        .where("id", "=", appeal.id)
        .execute();
    }
    await trx
      .updateTable("enforcement_appeals")
      .set({ answered_by: actor.email })
      .where("id", "=", appeal.id)
      .execute();
    const notice =
      answer.outcome === "uphold"
        ? ({ kind: "appeal-upheld", what: ACTION_LABELS[appeal.kind] } as const)
        : appeal.kind === "take-down"
          ? ({ kind: "reinstate-product", productTitle } as const)
          : ({ kind: "reinstate-seller" } as const);
    await recordAndTellSeller(
      deps,
      trx,
      announce,
      actor,
      {
        audit: {
          action: `appeal.${answer.outcome}`,
          reason: answer.reason,
          sellerId: appeal.seller_id,
          productId: appeal.product_id,
          reportId: appeal.report_id,
          details: { appealId: appeal.id, actionId: appeal.action_id, kind: appeal.kind },
        },
        email: appeal.email,
        notice,
      },
      now,
    );
    return appeal.seller_id;
  });
  return readStanding(deps.db, sellerId);
}
