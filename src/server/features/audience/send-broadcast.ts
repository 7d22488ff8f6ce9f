import { randomBytes } from "node:crypto";
import {
  AUDIENCE_MESSAGES,
  type Broadcast,
  type BroadcastDraft,
  type BroadcastPreview,
  productUpdateSubject,
} from "../../../contracts/audience";
import { STORE_FALLBACK_NAME } from "../../../contracts/products";
import { type Database, inTransaction } from "../../db/database";
import { AppError, badRequest, notFound } from "../../http/errors";
import { assertHasActivePlan } from "../billing";
import { broadcastEmail } from "./broadcast-email";
import { enqueueBroadcast } from "./broadcast-job";
import { productUpdateAllowance, sendingAllowance } from "./limits";
import { toBroadcast } from "./list-broadcasts";
import { countRecipients } from "./recipients";

const newBroadcastId = () => `bc_${randomBytes(10).toString("base64url")}`;

/** A draft as it will be sent: whose buyers, and the subject buyers see. */
export interface ResolvedDraft {
  kind: BroadcastDraft["kind"];
  audience: "all" | "product";
  productId: string | null;
  productTitle: string | null;
  subject: string;
  message: string;
}

/** The seller's own product named by the draft (another seller's is not found), and the final subject. */
export async function resolveDraft(
  db: Database,
  sellerId: string,
  draft: BroadcastDraft,
): Promise<ResolvedDraft> {
  const audience = draft.kind === "product-update" ? "product" : draft.audience;
  if (audience === "all") {
    return {
      kind: draft.kind,
      audience,
      productId: null,
      productTitle: null,
      subject: draft.subject,
      message: draft.message,
    };
  }
  if (!draft.productId) throw badRequest(AUDIENCE_MESSAGES.productRequired);
  const product = await db
    .selectFrom("products")
    .select(["id", "title"])
    .where("id", "=", draft.productId)
    .where("user_id", "=", sellerId)
    .executeTakeFirst();
  if (!product) throw notFound(AUDIENCE_MESSAGES.productNotFound);
  return {
    kind: draft.kind,
    audience,
    productId: product.id,
    productTitle: product.title,
    subject:
      draft.kind === "product-update" ? productUpdateSubject(product.title, draft.subject) : draft.subject,
    message: draft.message,
  };
}

export async function sellerName(db: Database, sellerId: string): Promise<string> {
  const profile = await db
    .selectFrom("profiles")
    .select("store_name")
    .where("id", "=", sellerId)
    .executeTakeFirst();
  return profile?.store_name ?? STORE_FALLBACK_NAME;
}

/** The email as a buyer will see it (with a stand-in unsubscribe link), and how many buyers it would reach now. */
export async function previewBroadcast(
  deps: { db: Database; appUrl: string },
  sellerId: string,
  draft: BroadcastDraft,
): Promise<BroadcastPreview> {
  const resolved = await resolveDraft(deps.db, sellerId, draft);
  const [name, recipients] = await Promise.all([
    sellerName(deps.db, sellerId),
    countRecipients(deps.db, sellerId, resolved),
  ]);
  const email = broadcastEmail(
    { kind: resolved.kind, subject: resolved.subject, message: resolved.message, sellerName: name },
    {
      to: "buyer@example.com",
      unsubscribeUrl: `${deps.appUrl}/unsubscribe/example`,
      libraryUrl: `${deps.appUrl}/library`,
    },
  );
  return { subject: resolved.subject, html: email.html, recipients };
}

/**
 * Records the seller's email to their buyers, to be queued into the outbox in batches
 * (queue-broadcasts.ts). The limits are checked with the seller's profile row locked, so two sends at
 * once cannot both pass them: at most 3 emails per 24 hours, one product update per product per 24
 * hours, and never an email that would reach no one.
 */
export async function createBroadcast(
  db: Database,
  sellerId: string,
  draft: BroadcastDraft,
  now: Date,
): Promise<Broadcast> {
  await assertHasActivePlan(db, sellerId, now);
  const resolved = await resolveDraft(db, sellerId, draft);
  return inTransaction(db, async (trx) => {
    await trx.selectFrom("profiles").select("id").where("id", "=", sellerId).forUpdate().execute();
    const allowance = await sendingAllowance(trx, sellerId, now);
    if (allowance.remaining === 0) {
      throw new AppError("broadcast_limit", 429, AUDIENCE_MESSAGES.dailyLimit, {
        nextAvailableAt: allowance.nextAvailableAt?.toISOString() ?? null,
      });
    }
    if (resolved.kind === "product-update" && resolved.productId) {
      const update = await productUpdateAllowance(trx, resolved.productId, now);
      if (update.nextAvailableAt) {
        throw new AppError("product_update_limit", 429, AUDIENCE_MESSAGES.productUpdateLimit, {
          nextAvailableAt: update.nextAvailableAt.toISOString(),
        });
      }
    }
    if ((await countRecipients(trx, sellerId, resolved)) === 0) {
      throw new AppError("no_recipients", 422, AUDIENCE_MESSAGES.noRecipients);
    }
    const row = await trx
      .insertInto("broadcasts")
      .values({
        id: newBroadcastId(),
        seller_id: sellerId,
        kind: resolved.kind,
        audience: resolved.audience,
        product_id: resolved.productId,
        product_title: resolved.productTitle,
        subject: resolved.subject,
        message: resolved.message,
        last_email: null,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await enqueueBroadcast(trx, row.id);
    return toBroadcast(row);
  });
}
