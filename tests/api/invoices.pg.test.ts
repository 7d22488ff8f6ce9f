import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextInvoiceNumber } from "../../src/server/features/invoices/issue-invoice";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { createTestApp, signUp, type TestApp, WEBHOOK_SECRETS } from "./support/test-app";
import { eventually } from "./support/wait";

// Two instances of one deployment on one PostgreSQL database: 20 sales of one seller fulfilled at once
// across both must take invoice numbers 1..20, each once (docs/tax-and-invoices.md).
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

describe("invoice numbers on two instances", () => {
  it("20 sales fulfilled concurrently across both instances get invoice numbers 1..20, no gaps, no repeats", async () => {
    const product = await createProduct(one, seller.cookie, {}, { cover: false });
    const sessions: string[] = [];
    for (let i = 0; i < 20; i++) {
      const checkout = await (i % 2 ? one : two).request({
        method: "POST",
        url: "/api/checkout",
        body: { productId: product.id },
        ip: `192.0.2.${100 + i}`,
      });
      expect(checkout.statusCode, checkout.body).toBe(200);
      sessions.push(sessionIdOf(checkout.json().url));
    }
    // Paid with no webhook delivered: both instances then settle every session at once, each success
    // page's lookup racing the other instance's.
    one.emulator.configureWebhooks({
      platform: { url: `${one.url}/api/webhooks/stripe`, secret: WEBHOOK_SECRETS.platform },
    });
    try {
      for (const [i, sessionId] of sessions.entries()) {
        await control(one.emulator).payCheckout(sessionId, "4242424242424242", `pg-buyer-${i}@example.com`);
      }
      await Promise.all(
        sessions.flatMap((sessionId, i) => [
          (i % 2 ? one : two).request({ method: "GET", url: `/api/orders/by-session/${sessionId}` }),
          (i % 2 ? two : one).request({ method: "GET", url: `/api/orders/by-session/${sessionId}` }),
        ]),
      );
    } finally {
      one.emulator.configureWebhooks({
        platform: { url: `${one.url}/api/webhooks/stripe`, secret: WEBHOOK_SECRETS.platform },
        connect: { url: `${one.url}/api/webhooks/stripe-connect`, secret: WEBHOOK_SECRETS.connect },
      });
    }
    await eventually(async () => {
      const orders = await one.db
        .selectFrom("orders")
        .select("id")
        .where("product_id", "=", product.id)
        .execute();
      expect(orders).toHaveLength(20);
    });
    const invoices = await one.db
      .selectFrom("invoices")
      .select("number")
      .where("seller_id", "=", seller.userId)
      .where("kind", "=", "invoice")
      .orderBy("number")
      .execute();
    expect(invoices.map((row) => row.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("takes each number inside its sale's transaction: concurrent sales wait in turn, a rolled-back one gives its number back", async () => {
    // A seller of their own: a fresh sequence. Every fifth sale fails after taking its number.
    const { userId } = await signUp(one);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? one : two).db.transaction().execute(async (trx) => {
          const number = await nextInvoiceNumber(trx, userId, "invoice");
          await sql`select pg_sleep(0.01)`.execute(trx);
          if (i % 5 === 4) throw new Error("the sale failed after taking its number");
          return number;
        }),
      ),
    );
    const committed = results
      .flatMap((result) => (result.status === "fulfilled" ? [result.value] : []))
      .sort((a, b) => a - b);
    expect(committed).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    const sequence = await one.db
      .selectFrom("invoice_sequences")
      .select("last_number")
      .where("seller_id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(sequence.last_number).toBe(16);
  });
});
