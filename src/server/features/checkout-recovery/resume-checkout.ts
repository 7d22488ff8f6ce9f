import { minorToDecimal } from "../../../contracts/money";
import type { Database } from "../../db/database";
import type { LeftCheckout } from "../checkout";
import { getPublicProduct } from "../products";
import { readRecoveryToken } from "./recovery-link";

export type RecoveryLinkState =
  | {
      kind: "ready";
      sellerId: string;
      productTitle: string;
      amountCents: number;
      currency: string;
      left: LeftCheckout;
    }
  | { kind: "invalid" }
  | { kind: "expired" | "unavailable"; sellerId: string };

/**
 * What a recovery link leads to: the checkout the buyer left (its product, currency, amount and code,
 * for a fresh checkout of the same), or why it leads nowhere: a tampered link, one past its 30 days, a
 * product no longer for sale. Only a checkout that got a recovery email has a link that works.
 */
export async function readRecoveryLink(
  deps: { db: Database; recoveryKey: string },
  token: string,
  now: Date,
): Promise<RecoveryLinkState> {
  const link = readRecoveryToken(token, deps.recoveryKey, now);
  if (!link.ok && link.problem === "invalid") return { kind: "invalid" };
  const checkoutId = link.ok ? link.checkoutId : checkoutIdOf(token);
  const row = checkoutId
    ? await deps.db
        .selectFrom("checkout_recoveries")
        .innerJoin("checkouts", "checkouts.id", "checkout_recoveries.checkout_id")
        .select([
          "checkout_recoveries.seller_id",
          "checkout_recoveries.product_id",
          "checkout_recoveries.currency",
          "checkout_recoveries.amount_cents",
          "checkouts.discount_code",
        ])
        .where("checkout_recoveries.checkout_id", "=", checkoutId)
        .where("checkout_recoveries.status", "=", "sent")
        .executeTakeFirst()
    : undefined;
  if (!row || !checkoutId) return { kind: "invalid" };
  if (!link.ok) return { kind: "expired", sellerId: row.seller_id };
  const product = await getPublicProduct(deps.db, row.product_id, now).catch(() => undefined);
  if (!product || product.seller.id !== row.seller_id || !product.purchasable) {
    return { kind: "unavailable", sellerId: row.seller_id };
  }
  return {
    kind: "ready",
    sellerId: row.seller_id,
    productTitle: product.title,
    amountCents: row.amount_cents,
    currency: row.currency,
    left: {
      checkoutId,
      productId: row.product_id,
      currency: row.currency,
      // A pay-what-you-want product is offered at the buyer's own amount again (a fixed price ignores it).
      amount: product.priceMode === "flexible" ? minorToDecimal(row.amount_cents, row.currency) : undefined,
      code: row.discount_code,
    },
  };
}

/** The checkout an expired (but genuine) token names: its signature was checked by readRecoveryToken. */
function checkoutIdOf(token: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8"));
    return typeof claims?.checkoutId === "string" ? claims.checkoutId : undefined;
  } catch {
    return undefined;
  }
}
