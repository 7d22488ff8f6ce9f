import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { control } from "./support/emulator-control";
import { createProduct, quantityOf as quantityOfProduct, readySeller } from "./support/sellers";
import { createTestApp, type TestApp, WEBHOOK_SECRETS } from "./support/test-app";

// Two instances of one deployment on one PostgreSQL database, as behind a load balancer: what only
// real concurrent connections can show.
let one: TestApp;
let two: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  one = await createTestApp({ listen: true });
  two = await createTestApp({ sharing: one });
  seller = await readySeller(one);
});
afterAll(async () => {
  await two.close();
  await one.close();
});

const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const quantityOf = (productId: string) => quantityOfProduct(one, productId);
const buyNow = (instance: TestApp, productId: string, ip: string) =>
  instance.request({ method: "POST", url: "/api/checkout", body: { productId }, ip });

describe("the money path on two instances", () => {
  it("Buy Nows from one network on both instances at once take one unit", async () => {
    const product = await createProduct(
      one,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "3" },
      { cover: false },
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => buyNow(i % 2 ? one : two, product.id, "192.0.2.77")),
    );
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
    expect(new Set(answers.filter((a) => a.statusCode === 200).map((a) => a.json().url)).size).toBe(1);
    expect(await quantityOf(product.id)).toBe(2);
  });

  it("a paid session settled by both instances' jobs and success pages at once: one order, one receipt", async () => {
    const product = await createProduct(one, seller.cookie, {}, { cover: false });
    const sessionId = sessionIdOf((await buyNow(one, product.id, "192.0.2.78")).json().url);
    one.emulator.configureWebhooks({
      platform: { url: `${one.url}/api/webhooks/stripe`, secret: WEBHOOK_SECRETS.platform },
    });
    const email = `twice-settled-${Date.now()}@example.com`;
    try {
      await control(one.emulator).payCheckout(sessionId, "4242424242424242", email);
      const lookup = (instance: TestApp) =>
        instance.request({ method: "GET", url: `/api/orders/by-session/${sessionId}` });
      await Promise.all([
        one.app.settleCheckouts(new Date()),
        two.app.settleCheckouts(new Date()),
        lookup(one),
        lookup(two),
      ]);
    } finally {
      one.emulator.configureWebhooks({
        platform: { url: `${one.url}/api/webhooks/stripe`, secret: WEBHOOK_SECRETS.platform },
        connect: { url: `${one.url}/api/webhooks/stripe-connect`, secret: WEBHOOK_SECRETS.connect },
      });
    }
    const orders = await one.db
      .selectFrom("orders")
      .select("id")
      .where("product_id", "=", product.id)
      .execute();
    expect(orders).toHaveLength(1);
    const receipts = await one.db
      .selectFrom("outbox_emails")
      .select("subject")
      .where("to_address", "=", email)
      .execute();
    expect(receipts).toHaveLength(1);
  });
});
