import { createHmac } from "node:crypto";
import { SignedTokenError, signToken, verifyToken } from "../../adapters/storage/signed-token";

/** Export links are signed with a key of their own, derived from the app secret. */
export const exportLinkKey = (appSecret: string) =>
  createHmac("sha256", appSecret).update("flatfee store export links").digest("base64url");

/** The link to one export's archive, valid until the archive is deleted: whoever holds it may download. */
export function exportToken(key: string, exportId: string, expiresAt: Date): string {
  return signToken(
    { purpose: "store-export", exportId, expiresAt: Math.floor(expiresAt.getTime() / 1000) },
    key,
  );
}

export const exportPath = (token: string) => `/store-export/${token}`;

export type ExportLink = { ok: true; exportId: string } | { ok: false; problem: "invalid" | "expired" };

/** Whose export a link is for, or why it does not work (a tampered link is invalid, an old one expired). */
export function readExportToken(token: string, key: string, now: Date): ExportLink {
  try {
    const claims = verifyToken(token, key, now.getTime());
    return claims.purpose === "store-export" && typeof claims.exportId === "string"
      ? { ok: true, exportId: claims.exportId }
      : { ok: false, problem: "invalid" };
  } catch (error) {
    if (error instanceof SignedTokenError) return { ok: false, problem: error.problem };
    throw error;
  }
}
