import { createHash } from "node:crypto";
import { getCookieCache } from "better-auth/cookies";

/** Better Auth's cookies (session token, cached session, "don't remember me"), secure-prefixed or not. */
const AUTH_COOKIE = /^(?:__Secure-)?better-auth\./;
const SESSION_TOKEN_COOKIE = /^(?:__Secure-)?better-auth\.session_token$/;

export interface CachedUser {
  id: string;
  email: string;
}

interface Entry {
  user: CachedUser;
  sessionToken: string;
  expiresAt: number;
}

/** What Better Auth's getSession answered for one request. */
export interface SessionRead {
  user: CachedUser;
  sessionToken: string;
  sessionExpiresAt: Date;
}

/**
 * A per-process cache of "these session cookies belong to this user", in front of Better Auth's
 * getSession (about 0.8 ms of CPU per request even when it trusts its signed cookie copy).
 *
 * It only stands in for Better Auth's signed copy of the session in the same cookies, and never longer
 * than Better Auth trusts that copy (SESSION_CACHE_SECONDS from the database read that made it), so a
 * session revoked on another instance is refused within that time, as before; cookies without a valid
 * copy are always read from the database by Better Auth. A session deleted through this instance
 * (sign-out, revoke, password change or reset) is refused at once: its entries are dropped and its
 * token is remembered as revoked until every copy of it made before has expired, so a still-valid
 * copy in another device's cookies is refused too.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly revokedTokens = new Map<string, number>();
  /** Bumped on every revocation: a read that started before one is not cached. */
  private generation = 0;

  constructor(
    private readonly options: {
      secret: string;
      secureCookies: boolean;
      ttlSeconds: number;
      maxEntries: number;
    },
  ) {}

  /**
   * The user of these cookies: from the cache, else from `read` (Better Auth), caching what it answered.
   * No session cookie at all is no user, without asking Better Auth (which answers the same).
   */
  async userOf(
    cookieHeader: string | undefined,
    read: () => Promise<SessionRead | undefined>,
  ): Promise<CachedUser | undefined> {
    const key = cacheKey(cookieHeader);
    if (!key) return undefined;
    const cached = this.fresh(key);
    if (cached) return cached.user;

    const generation = this.generation;
    const session = await read();
    if (!session || this.isRevoked(session.sessionToken)) return undefined;
    const copyExpiresAt = await this.signedCopyExpiry(cookieHeader, session.sessionToken);
    if (copyExpiresAt !== undefined && generation === this.generation) {
      const expiresAt = Math.min(copyExpiresAt, session.sessionExpiresAt.getTime());
      this.remember(key, { user: session.user, sessionToken: session.sessionToken, expiresAt });
    }
    return session.user;
  }

  /** When Better Auth stops trusting the signed copy of this session in these cookies; undefined without one. */
  private async signedCopyExpiry(cookieHeader: string | undefined, sessionToken: string) {
    const copy = await getCookieCache(new Headers({ cookie: cookieHeader ?? "" }), {
      secret: this.options.secret,
      isSecure: this.options.secureCookies,
    });
    if (copy?.session.token !== sessionToken) return undefined;
    return copy.updatedAt + this.options.ttlSeconds * 1000;
  }

  /** Called after Better Auth deleted a session (through this instance). */
  revoke(sessionToken: string): void {
    this.generation++;
    const now = Date.now();
    this.forgetExpiredRevocations(now);
    this.revokedTokens.set(sessionToken, now + this.options.ttlSeconds * 1000);
    for (const [key, entry] of this.entries) {
      if (entry.sessionToken === sessionToken) this.entries.delete(key);
    }
  }

  private fresh(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= Date.now()) return undefined;
    this.entries.set(key, entry); // most recently used last
    return entry;
  }

  private remember(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.options.maxEntries) {
      const leastRecentlyUsed = this.entries.keys().next().value;
      if (leastRecentlyUsed !== undefined) this.entries.delete(leastRecentlyUsed);
    }
  }

  private isRevoked(sessionToken: string): boolean {
    const until = this.revokedTokens.get(sessionToken);
    return until !== undefined && until > Date.now();
  }

  /** Revocations are kept in the order they happened, so the expired ones are at the front. */
  private forgetExpiredRevocations(now: number): void {
    for (const [token, until] of this.revokedTokens) {
      if (until > now) return;
      this.revokedTokens.delete(token);
    }
  }
}

/** A hash of Better Auth's cookies in this header (never the values themselves), or undefined without a session. */
function cacheKey(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const authCookies: string[] = [];
  let hasSessionToken = false;
  for (const pair of cookieHeader.split(";")) {
    const cookie = pair.trim();
    const equals = cookie.indexOf("=");
    if (equals < 0 || !AUTH_COOKIE.test(cookie.slice(0, equals))) continue;
    authCookies.push(cookie);
    if (SESSION_TOKEN_COOKIE.test(cookie.slice(0, equals))) hasSessionToken = true;
  }
  if (!hasSessionToken) return undefined;
  return createHash("sha256").update(authCookies.sort().join("; ")).digest("base64url");
}
