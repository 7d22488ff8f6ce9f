import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BILLING_MESSAGES } from "../../src/contracts/seller";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, signUp, type TestApp } from "./support/test-app";

// An account that never paid must not make the server send requests or emails in its name: webhook
// endpoints, API keys, discount codes and emails to buyers need the plan, as products do.
let t: TestApp;
let unpaid: Awaited<ReturnType<typeof signUp>>;
let paid: Awaited<ReturnType<typeof readySeller>>;
let productId: string;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  [unpaid, paid] = await Promise.all([signUp(t), readySeller(t)]);
  productId = (await createProduct(t, paid.cookie)).id;
});
afterAll(async () => {
  await t.close();
});

const attempts = (id: string) => [
  { url: "/api/webhook-endpoints", body: { url: "https://example.com/hooks", events: ["sale.completed"] } },
  { url: "/api/api-keys", body: { name: "Zapier" } },
  { url: "/api/discount-codes", body: { code: "SPRING", kind: "percent", value: 10, appliesTo: "all" } },
  { url: "/api/broadcasts", body: { kind: "message", audience: "all", subject: "Hello", message: "News." } },
  {
    url: "/api/broadcasts",
    body: { kind: "product-update", productId: id, subject: "Ch. 9", message: "News." },
  },
];

async function rowsOf(sellerId: string) {
  const count = async (table: "webhook_endpoints" | "api_keys" | "discount_codes" | "broadcasts") =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("seller_id", "=", sellerId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    endpoints: await count("webhook_endpoints"),
    keys: await count("api_keys"),
    codes: await count("discount_codes"),
    broadcasts: await count("broadcasts"),
    emails: Number(
      (
        await t.db
          .selectFrom("outbox_emails")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  };
}

describe("what acts in a seller's name needs the plan", () => {
  it("refuses an account that never paid, and creates nothing", async () => {
    const before = await rowsOf(unpaid.userId);
    for (const { url, body } of attempts(productId)) {
      const response = await t.request({ method: "POST", url, cookie: unpaid.cookie, body });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(403);
      expect(response.json(), url).toMatchObject({
        code: "subscription_required",
        message: BILLING_MESSAGES.subscriptionRequired,
      });
    }
    expect(await rowsOf(unpaid.userId)).toEqual(before);
  });

  it("lets a seller on the plan do the same", async () => {
    const [endpoint, key, code] = attempts(productId);
    for (const { url, body } of [endpoint!, key!, code!]) {
      const response = await t.request({ method: "POST", url, cookie: paid.cookie, body });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
    }
  });
});
