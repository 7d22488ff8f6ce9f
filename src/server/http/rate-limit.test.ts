import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../tests/api/support/test-database";
import type { DatabaseHandle } from "../db/database";
import { enforceRateLimit } from "./rate-limit";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const rule = { name: "test", limit: 5, windowSeconds: 60 };
const hit = (subject: string, at: number) =>
  enforceRateLimit(database.db, rule, subject, "slow down", new Date(at)).then(
    () => "ok",
    (error: { status: number }) => error.status,
  );

describe("sliding-window rate limit", () => {
  const minute = 60_000;
  const base = Math.floor(Date.UTC(2026, 0, 1) / minute) * minute;

  it("allows the limit and refuses the next hit", async () => {
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await hit("a", base + 1000 + i));
    expect(results).toEqual(["ok", "ok", "ok", "ok", "ok", 429]);
  });

  it("still refuses a burst that straddles a window boundary", async () => {
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await hit("b", base + minute - 100 + i));
    for (let i = 0; i < 3; i++) results.push(await hit("b", base + minute + 100 + i));
    expect(results.at(-1)).toBe(429);
  });

  it("forgets hits once a full window has passed", async () => {
    for (let i = 0; i < 6; i++) await hit("c", base + i);
    expect(await hit("c", base + 2 * minute + 1)).toBe("ok");
  });

  it("keeps subjects apart", async () => {
    for (let i = 0; i < 6; i++) await hit("d", base + i);
    expect(await hit("e", base + 10)).toBe("ok");
  });
});
