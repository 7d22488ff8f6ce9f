import { randomUUID } from "node:crypto";
import {
  ACTION_LABELS,
  type ActionKind,
  ENFORCEMENT_MESSAGES,
  type ProductActionBody,
  type SellerActionBody,
  type Standing,
} from "../../../contracts/enforcement";
import { type Announce, commitChange } from "../../adapters/events/commit-change";
import { PUBLIC_PAGES_CHANGED } from "../../adapters/events/event-bus";
import type { Database } from "../../db/database";
import { AppError, notFound } from "../../http/errors";
import { type Actor, type AuditRecord, recordAudit } from "../operator";
import { type StandingNotice, standingEmail } from "./emails";
import type { EnforcementDeps } from "./enforcement-deps";
import { readStanding } from "./standing";

/** The seller's account, locked for the change: two operators acting at once are applied one after the other. */
async function lockSeller(trx: Database, sellerId: string) {
  const seller = await trx
    .selectFrom("profiles")
    .innerJoin("user", "user.id", "profiles.id")
    .select(["profiles.id", "user.email"])
    .where("profiles.id", "=", sellerId)
    .forUpdate("profiles")
    .executeTakeFirst();
  if (!seller) throw notFound(ENFORCEMENT_MESSAGES.sellerNotFound);
  return seller;
}

async function sellerActionInForce(trx: Database, sellerId: string) {
  return trx
    .selectFrom("enforcement_actions")
    .selectAll()
    .where("seller_id", "=", sellerId)
    .where("lifted_at", "is", null)
    .where("kind", "in", ["restrict", "suspend"])
    .executeTakeFirst();
}

async function takeDownInForce(trx: Database, productId: string) {
  return trx
    .selectFrom("enforcement_actions")
    .selectAll()
    .where("product_id", "=", productId)
    .where("lifted_at", "is", null)
    .where("kind", "=", "take-down")
    .executeTakeFirst();
}

/**
 * What every enforcement decision ends with, in its transaction: the audit entry, the seller's email
 * (what happened, why, how to appeal) and, after commit, the seller's public pages dropped from caches.
 */
export async function recordAndTellSeller(
  deps: Pick<EnforcementDeps, "outbox" | "appUrl">,
  trx: Database,
  announce: Announce,
  actor: Actor,
  decision: { audit: AuditRecord & { sellerId: string }; email: string; notice: StandingNotice },
  now: Date,
): Promise<void> {
  await recordAudit(trx, actor, decision.audit, now);
  await deps.outbox.enqueue(
    standingEmail(deps.appUrl, decision.email, decision.notice, decision.audit.reason),
    trx,
  );
  announce(decision.audit.sellerId, PUBLIC_PAGES_CHANGED);
}

/**
 * Ends an action (reinstated, or replaced by another): it stays in the history with when and why, and
 * its open appeal is closed with `appealStatus` (reinstated: the seller got what they asked for).
 */
export async function liftAction(
  trx: Database,
  actionId: string,
  reason: string,
  appealStatus: "reinstated" | "closed",
  now: Date,
): Promise<void> {
  await trx
    .updateTable("enforcement_actions")
    .set({ lifted_at: now, lifted_reason: reason })
    .where("id", "=", actionId)
    .where("lifted_at", "is", null)
    .execute();
  await trx
    .updateTable("enforcement_appeals")
    .set({ status: appealStatus, answered_at: now, answer_reason: reason })
    .where("action_id", "=", actionId)
    .where("status", "=", "open")
    .execute();
}

async function insertAction(
  trx: Database,
  actor: Actor,
  values: {
    sellerId: string;
    productId?: string | undefined;
    kind: ActionKind;
    reason: string;
    reportId?: string | undefined;
    revokeDownloads?: boolean | undefined;
  },
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto("enforcement_actions")
    .values({
      id,
      seller_id: values.sellerId,
      product_id: values.productId ?? null,
      kind: values.kind,
      reason: values.reason,
      report_id: values.reportId ?? null,
      revoke_downloads: values.revokeDownloads ?? false,
      actor_email: actor.email,
      created_at: now,
    })
    .execute();
  return id;
}

/**
 * An operator's action on a seller: warn, restrict (no new products, no sales), suspend (pages show
 * "unavailable" too; buyers keep their downloads unless `revokeDownloads`), or reinstate (lift the
 * restriction or suspension). In one transaction: the change, its audit entry and the seller's email;
 * the seller's kept pages are dropped once it commits.
 */
export async function takeSellerAction(
  deps: EnforcementDeps,
  actor: Actor,
  sellerId: string,
  body: SellerActionBody,
  now: Date,
): Promise<Standing> {
  await commitChange(deps, async (trx, announce) => {
    const seller = await lockSeller(trx, sellerId);
    const current = await sellerActionInForce(trx, sellerId);
    let notice: StandingNotice;
    const details: Record<string, unknown> = {};
    if (body.action === "reinstate") {
      if (!current) throw new AppError("good_standing", 409, ENFORCEMENT_MESSAGES.goodStanding);
      await liftAction(trx, current.id, body.reason, "reinstated", now);
      details.lifted = current.kind;
      details.actionId = current.id;
      notice = { kind: "reinstate-seller" };
    } else if (body.action === "warn") {
      details.actionId = await insertAction(trx, actor, { sellerId, kind: "warn", ...body }, now);
      notice = { kind: "warn" };
    } else {
      const revokeDownloads = body.action === "suspend" && body.revokeDownloads === true;
      if (current && current.kind === body.action && current.revoke_downloads === revokeDownloads) {
        throw new AppError("already_in_force", 409, ENFORCEMENT_MESSAGES.alreadyInForce);
      }
      if (current) {
        await liftAction(
          trx,
          current.id,
          `Replaced by a ${ACTION_LABELS[body.action].toLowerCase()}.`,
          "closed",
          now,
        );
        details.replaced = current.id;
      }
      details.actionId = await insertAction(
        trx,
        actor,
        { sellerId, kind: body.action, reason: body.reason, reportId: body.reportId, revokeDownloads },
        now,
      );
      if (body.action === "suspend") details.revokeDownloads = revokeDownloads;
      notice = body.action === "suspend" ? { kind: "suspend", revokeDownloads } : { kind: "restrict" };
    }
    await recordAndTellSeller(
      deps,
      trx,
      announce,
      actor,
      {
        audit: {
          action: `seller.${body.action}`,
          reason: body.reason,
          sellerId,
          reportId: body.reportId,
          details,
        },
        email: seller.email,
        notice,
      },
      now,
    );
  });
  return readStanding(deps.db, sellerId);
}

/** The product (of any seller) an operator acts on, locked for the change. */
async function lockProduct(trx: Database, productId: string) {
  const product = await trx
    .selectFrom("products")
    .innerJoin("user", "user.id", "products.user_id")
    .select(["products.id", "products.title", "products.user_id", "user.email"])
    .where("products.id", "=", productId)
    .forUpdate("products")
    .executeTakeFirst();
  if (!product) throw notFound(ENFORCEMENT_MESSAGES.productNotFound);
  return product;
}

/** Takes one product down: its page says it is unavailable and it can't be bought; the rest of the store is untouched. */
export async function takeDownProduct(
  deps: EnforcementDeps,
  actor: Actor,
  productId: string,
  body: ProductActionBody,
  now: Date,
): Promise<Standing> {
  const sellerId = await commitChange(deps, async (trx, announce) => {
    const product = await lockProduct(trx, productId);
    if (await takeDownInForce(trx, productId)) {
      throw new AppError("already_in_force", 409, ENFORCEMENT_MESSAGES.alreadyTakenDown);
    }
    const actionId = await insertAction(
      trx,
      actor,
      {
        sellerId: product.user_id,
        productId,
        kind: "take-down",
        reason: body.reason,
        reportId: body.reportId,
      },
      now,
    );
    await recordAndTellSeller(
      deps,
      trx,
      announce,
      actor,
      {
        audit: {
          action: "product.take-down",
          reason: body.reason,
          sellerId: product.user_id,
          productId,
          reportId: body.reportId,
          details: { actionId, title: product.title },
        },
        email: product.email,
        notice: { kind: "take-down", productTitle: product.title },
      },
      now,
    );
    return product.user_id;
  });
  return readStanding(deps.db, sellerId);
}

/** Lifts a product's take-down. */
export async function reinstateProduct(
  deps: EnforcementDeps,
  actor: Actor,
  productId: string,
  body: ProductActionBody,
  now: Date,
): Promise<Standing> {
  const sellerId = await commitChange(deps, async (trx, announce) => {
    const product = await lockProduct(trx, productId);
    const current = await takeDownInForce(trx, productId);
    if (!current) throw new AppError("good_standing", 409, ENFORCEMENT_MESSAGES.notTakenDown);
    await liftAction(trx, current.id, body.reason, "reinstated", now);
    await recordAndTellSeller(
      deps,
      trx,
      announce,
      actor,
      {
        audit: {
          action: "product.reinstate",
          reason: body.reason,
          sellerId: product.user_id,
          productId,
          reportId: body.reportId,
          details: { actionId: current.id, title: product.title },
        },
        email: product.email,
        notice: { kind: "reinstate-product", productTitle: product.title },
      },
      now,
    );
    return product.user_id;
  });
  return readStanding(deps.db, sellerId);
}
