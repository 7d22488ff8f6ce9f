import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SESSION_CACHE_SECONDS } from "../../src/server/features/auth/auth";
import { SessionCache } from "../../src/server/features/auth/session-cache";
import { cookiesOf, createTestApp, signUp, type TestApp } from "./support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const stats = (cookie: string) => t.request({ method: "GET", url: "/api/dashboard/stats", cookie });
const signIn = async (email: string, password: string) =>
  cookiesOf(await t.request({ method: "POST", url: "/api/auth/sign-in/email", body: { email, password } }));

describe("the per-process session cache", () => {
  it("answers repeated requests with the same cookies without asking Better Auth again", async () => {
    const { cookie } = await signUp(t);
    const getSession = vi.spyOn(t.app.auth.api, "getSession");
    for (let i = 0; i < 3; i++) expect((await stats(cookie)).statusCode).toBe(200);
    expect(getSession).toHaveBeenCalledTimes(1);

    // No session cookie at all: 401 without asking Better Auth either.
    expect((await stats("flatfee_checkout=abc")).statusCode).toBe(401);
    expect(getSession).toHaveBeenCalledTimes(1);
  });

  it("tells users apart by their cookies", async () => {
    const alice = await signUp(t);
    const bob = await signUp(t);
    await t.db
      .updateTable("profiles")
      .set({ store_name: "Alice's" })
      .where("id", "=", alice.userId)
      .execute();
    await t.db.updateTable("profiles").set({ store_name: "Bob's" }).where("id", "=", bob.userId).execute();
    for (let i = 0; i < 2; i++) {
      const storeName = async (cookie: string) =>
        (await t.request({ method: "GET", url: "/api/store-settings", cookie })).json().storeName;
      expect(await storeName(alice.cookie)).toBe("Alice's");
      expect(await storeName(bob.cookie)).toBe("Bob's");
    }
  });

  it("refuses a session signed out on this instance at once, even with a still-valid copy in its cookies", async () => {
    const { cookie } = await signUp(t);
    expect((await stats(cookie)).statusCode).toBe(200);
    const out = await t.request({ method: "POST", url: "/api/auth/sign-out", cookie, body: {} });
    expect(out.statusCode).toBe(200);
    const replayed = await stats(cookie);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toBe("User not authenticated");
  });

  it("refuses another device at once when this instance revokes its session (password change)", async () => {
    const { email, password, cookie } = await signUp(t);
    const otherDevice = await signIn(email, password);
    expect((await stats(otherDevice)).statusCode).toBe(200);
    const change = await t.request({
      method: "POST",
      url: "/api/auth/change-password",
      cookie,
      body: { currentPassword: password, newPassword: "another-horse-77", revokeOtherSessions: true },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect((await stats(otherDevice)).statusCode).toBe(401);
    // The device that changed it carries the new session Better Auth gave it.
    expect((await stats(cookiesOf(change))).statusCode).toBe(200);
  });

  it("refuses a session revoked elsewhere once the copy it was cached from is SESSION_CACHE_SECONDS old", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { cookie, userId } = await signUp(t); // Better Auth's signed copy of the session is made now
    vi.setSystemTime(Date.now() + (SESSION_CACHE_SECONDS - 10) * 1000);
    expect((await stats(cookie)).statusCode).toBe(200); // first seen (and cached) 10 s before the copy lapses

    // Another instance's sign-out deletes the row; nothing tells this one.
    await t.db.deleteFrom("session").where("userId", "=", userId).execute();
    expect((await stats(cookie)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 11 * 1000);
    expect((await stats(cookie)).statusCode).toBe(401);
  });
});

describe("SessionCache", () => {
  /** Real cookies of signed-up users (with Better Auth's signed copy), read by a cache of our own. */
  async function cacheWithUsers(maxEntries: number, count: number) {
    const cache = new SessionCache({
      secret: t.app.auth.options.secret ?? "",
      secureCookies: false,
      ttlSeconds: SESSION_CACHE_SECONDS,
      maxEntries,
    });
    const users = await Promise.all(Array.from({ length: count }, () => signUp(t)));
    const reads: number[] = [];
    const userOf = (index: number, cookie = users[index]!.cookie) =>
      cache.userOf(cookie, async () => {
        reads.push(index);
        const session = await t.app.auth.api.getSession({ headers: new Headers({ cookie }) });
        return session
          ? {
              user: { id: session.user.id, email: session.user.email },
              sessionToken: session.session.token,
              sessionExpiresAt: session.session.expiresAt,
            }
          : undefined;
      });
    return { users, reads, userOf };
  }

  it("keeps at most maxEntries sessions, dropping the least recently used", async () => {
    const { users, reads, userOf } = await cacheWithUsers(2, 3);
    await userOf(0);
    await userOf(1);
    await userOf(0); // cached, now the most recently used
    await userOf(2); // drops 1
    expect((await userOf(0))?.id).toBe(users[0]!.userId);
    await userOf(1);
    expect(reads).toEqual([0, 1, 2, 1]);
  });

  it("keys on Better Auth's cookies only, and caches only cookies that carry its signed copy", async () => {
    const { users, reads, userOf } = await cacheWithUsers(10, 1);
    const cookie = users[0]!.cookie;
    await userOf(0, `${cookie}; theme=dark`);
    await userOf(0, `theme=light; ${cookie}`);
    expect(reads).toEqual([0]);

    const tokenOnly = cookie.split("; ").filter((c) => !c.startsWith("better-auth.session_data="));
    expect((await userOf(0, tokenOnly.join("; ")))?.id).toBe(users[0]!.userId);
    await userOf(0, tokenOnly.join("; "));
    expect(reads).toEqual([0, 0, 0]); // read by Better Auth (from the database) every time
  });
});
