import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook } from "./signature";

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks reference vector", () => {
    expect(
      signWebhook(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("changes with the body, the id, the timestamp and the secret", () => {
    const secret = newWebhookSecret();
    const base = signWebhook(secret, "msg_1", 1700000000, "{}");
    expect(signWebhook(secret, "msg_1", 1700000000, '{"a":1}')).not.toBe(base);
    expect(signWebhook(secret, "msg_2", 1700000000, "{}")).not.toBe(base);
    expect(signWebhook(secret, "msg_1", 1700000001, "{}")).not.toBe(base);
    expect(signWebhook(newWebhookSecret(), "msg_1", 1700000000, "{}")).not.toBe(base);
  });
});

describe("newWebhookSecret", () => {
  it("is whsec_ and 32 random bytes in base64", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});
