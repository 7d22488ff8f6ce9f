import { createHmac } from "node:crypto";
import { RECOVERY_RULES } from "../../../contracts/checkout-recovery";
import { SignedTokenError, signToken, verifyToken } from "../../adapters/storage/signed-token";

/** Recovery links are signed with a key of their own, derived from the app secret. */
export const recoveryKey = (appSecret: string) =>
  createHmac("sha256", appSecret).update("flatfee checkout recovery links").digest("base64url");

export const recoveryPath = (token: string) => `/recover/${token}`;

/** A link back to one expired checkout, valid RECOVERY_RULES.linkValidMs from when its email was written. */
export function recoveryToken(key: string, checkoutId: string, now: Date): string {
  const expiresAt = Math.floor((now.getTime() + RECOVERY_RULES.linkValidMs) / 1000);
  return signToken({ purpose: "checkout-recovery", checkoutId, expiresAt }, key);
}

export type RecoveryLink = { ok: true; checkoutId: string } | { ok: false; problem: "invalid" | "expired" };

/** Which checkout a link recovers; a tampered or foreign token is invalid, an old one expired. */
export function readRecoveryToken(token: string, key: string, now: Date): RecoveryLink {
  try {
    const claims = verifyToken(token, key, now.getTime());
    if (claims.purpose !== "checkout-recovery" || typeof claims.checkoutId !== "string") {
      return { ok: false, problem: "invalid" };
    }
    return { ok: true, checkoutId: claims.checkoutId };
  } catch (error) {
    if (error instanceof SignedTokenError) return { ok: false, problem: error.problem };
    throw error;
  }
}
