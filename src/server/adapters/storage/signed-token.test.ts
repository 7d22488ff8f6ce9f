import { describe, expect, it } from "vitest";
import { SignedTokenError, signToken, verifyToken } from "./signed-token";

const inAMinute = () => Math.floor(Date.now() / 1000) + 60;

describe("signed tokens", () => {
  it("round-trips the claims", () => {
    const token = signToken({ key: "a/b.pdf", expiresAt: inAMinute() }, "secret");
    expect(verifyToken(token, "secret")).toMatchObject({ key: "a/b.pdf" });
  });

  it("refuses a changed payload, another secret, junk and an expired token", () => {
    const token = signToken({ key: "a/b.pdf", expiresAt: inAMinute() }, "secret");
    const [, mac] = token.split(".");
    const forged = `${Buffer.from(JSON.stringify({ key: "c/d.pdf", expiresAt: inAMinute() })).toString("base64url")}.${mac}`;
    const problemOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error instanceof SignedTokenError ? error.problem : "other";
      }
      return "none";
    };
    expect(problemOf(() => verifyToken(forged, "secret"))).toBe("invalid");
    expect(problemOf(() => verifyToken(token, "another secret"))).toBe("invalid");
    expect(problemOf(() => verifyToken("not-a-token", "secret"))).toBe("invalid");
    expect(problemOf(() => verifyToken(`${token}.extra`, "secret"))).toBe("invalid");
    const expired = signToken({ key: "a/b.pdf", expiresAt: Math.floor(Date.now() / 1000) - 1 }, "secret");
    expect(problemOf(() => verifyToken(expired, "secret"))).toBe("expired");
  });
});
