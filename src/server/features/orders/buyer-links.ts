import { createHmac } from "node:crypto";
import { PURCHASE_RULES } from "../../../contracts/orders";
import { SignedTokenError, signToken, verifyToken } from "../../adapters/storage/signed-token";

/** Buyer links are signed with a key of their own, derived from the app secret. */
export const buyerLinkKey = (appSecret: string) =>
  createHmac("sha256", appSecret).update("flatfee buyer links").digest("base64url");

const HOUR_S = 60 * 60;

export function downloadToken(key: string, orderId: string, now: Date): string {
  const expiresAt = Math.floor(now.getTime() / 1000) + PURCHASE_RULES.buyerLinkHours * HOUR_S;
  return signToken({ purpose: "download", orderId, expiresAt }, key);
}

export function libraryToken(key: string, email: string, now: Date): string {
  const expiresAt = Math.floor(now.getTime() / 1000) + PURCHASE_RULES.libraryLinkDays * 24 * HOUR_S;
  return signToken({ purpose: "library", email: email.toLowerCase(), expiresAt }, key);
}

export const downloadPath = (token: string) => `/download/${token}`;
export const libraryPath = (token: string) => `/library?token=${encodeURIComponent(token)}`;

export type ReadToken<T> = { ok: true; value: T } | { ok: false; problem: "invalid" | "expired"; value?: T };

/**
 * Reads a buyer token of the given purpose. An expired token whose signature is good still tells
 * what it was for, so the page can offer to send a fresh link.
 */
function readToken<T>(token: string, key: string, purpose: string, field: string, now: Date): ReadToken<T> {
  try {
    const claims = verifyToken(token, key, now.getTime());
    if (claims.purpose !== purpose || typeof claims[field] !== "string")
      return { ok: false, problem: "invalid" };
    return { ok: true, value: claims[field] as T };
  } catch (error) {
    if (!(error instanceof SignedTokenError)) throw error;
    if (error.problem === "invalid") return { ok: false, problem: "invalid" };
    const claims = JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8"));
    return claims.purpose === purpose
      ? { ok: false, problem: "expired", value: claims[field] as T }
      : { ok: false, problem: "invalid" };
  }
}

export const readDownloadToken = (token: string, key: string, now: Date) =>
  readToken<string>(token, key, "download", "orderId", now);
export const readLibraryToken = (token: string, key: string, now: Date) =>
  readToken<string>(token, key, "library", "email", now);
