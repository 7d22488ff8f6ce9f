import { createHmac, timingSafeEqual } from "node:crypto";

export type TokenProblem = "invalid" | "expired";

export class SignedTokenError extends Error {
  constructor(readonly problem: TokenProblem) {
    super(problem === "expired" ? "Token expired" : "Token invalid");
    this.name = "SignedTokenError";
  }
}

/** What a token needs besides its own claims: when it stops working (seconds since the epoch). */
interface Expiring {
  expiresAt: number;
}

const signature = (payload: string, secret: string) => createHmac("sha256", secret).update(payload).digest();

/** `base64url(json).base64url(hmac-sha256)`: readable claims, unforgeable without the secret. */
export function signToken<Claims extends Expiring>(claims: Claims, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${payload}.${signature(payload, secret).toString("base64url")}`;
}

/** The claims of a token this secret signed and that has not expired; anything else throws SignedTokenError. */
export function verifyToken(token: string, secret: string, now = Date.now()): Record<string, unknown> {
  const [payload, mac, extra] = token.split(".");
  if (!payload || !mac || extra !== undefined) throw new SignedTokenError("invalid");
  const expected = signature(payload, secret);
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new SignedTokenError("invalid");
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw new SignedTokenError("invalid");
  }
  if (typeof claims !== "object" || claims === null) throw new SignedTokenError("invalid");
  const { expiresAt } = claims as Partial<Expiring>;
  if (typeof expiresAt !== "number") throw new SignedTokenError("invalid");
  if (expiresAt * 1000 <= now) throw new SignedTokenError("expired");
  return claims as Record<string, unknown>;
}
