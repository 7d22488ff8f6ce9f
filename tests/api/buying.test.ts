import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ORDER_MESSAGES, type SalesPage } from "../../src/contracts/orders";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { createProduct, quantityOf as quantityOfProduct, readySeller } from "./support/sellers";
import { createTestApp, signUp, type TestApp, WEBHOOK_SECRETS } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  seller = await readySeller(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => t.clock.reset());

const DAY_MS = 24 * 60 * 60 * 1000;
const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const checkout = (productId: string) =>
  t.request({ method: "POST", url: "/api/checkout", body: { productId } });
const ordersOf = (productId: string) =>
  t.db.selectFrom("orders").selectAll().where("product_id", "=", productId).execute();
const quantityOf = (productId: string) => quantityOfProduct(t, productId);
const lookup = (sessionId: string) =>
  t.request({ method: "GET", url: `/api/orders/by-session/${sessionId}` });
const emailsTo = (to: string) =>
  t.db.selectFrom("outbox_emails").selectAll().where("to_address", "=", to).orderBy("id").execute();

/** A buyer pays with 4242; returns the session id once the order exists. */
async function buy(productId: string, email: string) {
  const response = await checkout(productId);
  expect(response.statusCode, response.body).toBe(200);
  const sessionId = sessionIdOf(response.json().url);
  await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
  await eventually(async () => expect((await lookup(sessionId)).statusCode).toBe(200));
  return sessionId;
}

/** The library behind the receipt's link, as the buyer opens it from their inbox. */
async function libraryOf(email: string) {
  const receipt = (await emailsTo(email)).find((mail) => mail.subject.startsWith("Your receipt"))!;
  const url = new URL(receipt.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0]);
  const token = encodeURIComponent(url.searchParams.get("token")!);
  return (await t.request({ method: "GET", url: `/api/library?token=${token}` })).json();
}

async function downloadToken(sessionId: string) {
  const { purchase } = (await lookup(sessionId)).json();
  return (purchase.downloadPath as string).replace("/download/", "");
}
const startDownload = (token: string) => t.request({ method: "POST", url: `/api/downloads/${token}` });

describe("checkout", () => {
  it("creates a direct charge on the seller's account: no fee, metadata, 30-minute expiry, success and cancel URLs", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const response = await checkout(product.id);
    const sessionId = sessionIdOf(response.json().url);
    const account = seller.account;
    const session = await t.stripe.checkout.sessions.retrieve(
      sessionId,
      { expand: ["line_items"] },
      { stripeAccount: account },
    );
    expect(session).toMatchObject({
      mode: "payment",
      metadata: { product_id: product.id, seller_id: seller.userId },
    });
    expect(session.success_url).toBe("http://localhost:3000/success?session_id={CHECKOUT_SESSION_ID}");
    expect(session.cancel_url).toBe(`http://localhost:3000/product/${product.id}`);
    expect(session.line_items?.data[0]?.amount_total).toBe(1999);
    expect(session.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(29 * 60);
    expect(session.expires_at - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(31 * 60);
    // The platform account holds no trace of it: it is the seller's own charge.
    await expect(t.stripe.checkout.sessions.retrieve(sessionId)).rejects.toThrow();
  });

  it("refuses inactive, sold-out and unknown products, and sellers who may not sell", async () => {
    const inactive = await createProduct(t, seller.cookie, {}, { cover: false });
    await t.db.updateTable("products").set({ is_active: false }).where("id", "=", inactive.id).execute();
    expect((await checkout(inactive.id)).statusCode).toBe(404);
    expect((await checkout("nope")).statusCode).toBe(404);

    const soldOut = await createProduct(
      t,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "0" },
      { cover: false },
    );
    const refused = await checkout(soldOut.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ORDER_MESSAGES.soldOut);

    const lapsing = await readySeller(t);
    const product = await createProduct(t, lapsing.cookie, {}, { cover: false });
    const sub = await t.db
      .selectFrom("subscriptions")
      .select("stripe_subscription_id")
      .where("user_id", "=", lapsing.userId)
      .executeTakeFirstOrThrow();
    await t.stripe.subscriptions.cancel(sub.stripe_subscription_id);
    await eventually(async () => expect((await checkout(product.id)).statusCode).toBe(409));
    expect((await checkout(product.id)).json().message).toBe(ORDER_MESSAGES.notPurchasable);
  });

  it("never oversells: 50 buyers at once for 5 units get exactly 5 checkouts", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "5" },
      { cover: false },
    );
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.request({
          method: "POST",
          url: "/api/checkout",
          body: { productId: product.id },
          ip: `198.51.100.${i + 1}`,
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(45);
    expect(responses.find((r) => r.statusCode === 409)?.json().message).toBe(ORDER_MESSAGES.soldOut);
    expect(await quantityOf(product.id)).toBe(0);
    const held = await t.db
      .selectFrom("checkouts")
      .select("reservation")
      .where("product_id", "=", product.id)
      .execute();
    expect(held.map((h) => h.reservation)).toEqual(Array(5).fill("held"));
  });

  it("lets one visitor hold one unit of a product at a time: Buy Now again answers the same checkout", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "50" },
      { cover: false },
    );
    // The browser keeps the cookie its first Buy Now gave it, as a real one does.
    let browserCookie: string | undefined;
    const hold = async () => {
      const response = await t.request({
        method: "POST",
        url: "/api/checkout",
        body: { productId: product.id },
        ip: "198.51.100.200",
        ...(browserCookie ? { cookie: browserCookie } : {}),
      });
      const set = response.cookies.find((cookie) => cookie.name === "flatfee_checkout");
      if (set) browserCookie = `${set.name}=${set.value}`;
      return response;
    };
    const urls = new Set<string>();
    for (let i = 0; i < 6; i++) urls.add((await hold()).json().url);
    expect(urls.size).toBe(1);
    expect(await quantityOf(product.id)).toBe(49);
  });

  it("gives the unit back when a checkout expires, once even if the event comes twice", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "1" },
      { cover: false },
    );
    const sessionId = sessionIdOf((await checkout(product.id)).json().url);
    expect(await quantityOf(product.id)).toBe(0);
    expect((await checkout(product.id)).statusCode).toBe(409);
    await control(t.emulator).expireCheckout(sessionId);
    await eventually(async () => expect(await quantityOf(product.id)).toBe(1));
    const expired = (await control(t.emulator).events()).find(
      (e) => e.type === "checkout.session.expired" && (e.data.object as { id: string }).id === sessionId,
    )!;
    await control(t.emulator).redeliver(expired.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await quantityOf(product.id)).toBe(1);
    expect((await checkout(product.id)).statusCode).toBe(200);
  });
});

describe("fulfilment", () => {
  it("webhook, success page and a redelivered event make one order and one receipt", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "3" },
      { cover: false },
    );
    const email = `buyer-${Date.now()}@example.com`;
    const response = await checkout(product.id);
    const sessionId = sessionIdOf(response.json().url);
    expect((await lookup(sessionId)).statusCode).toBe(404);
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
    // The success page and the webhook race; both must end in the same single order.
    const [first, second] = await Promise.all([lookup(sessionId), lookup(sessionId)]);
    expect(first.statusCode).toBe(200);
    expect(second.json().purchase.orderId).toBe(first.json().purchase.orderId);
    const completed = (await control(t.emulator).events()).find(
      (e) => e.type === "checkout.session.completed" && (e.data.object as { id: string }).id === sessionId,
    )!;
    await control(t.emulator).redeliver(completed.id);
    await eventually(async () => expect((await ordersOf(product.id)).length).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const orders = await ordersOf(product.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      customer_email: email,
      amount_cents: 1999,
      product_title: "The Guide",
      status: "completed",
      downloads_used: 0,
    });
    expect(await quantityOf(product.id)).toBe(2);
    const receipts = await emailsTo(email);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.subject).toBe("Your receipt: The Guide");
    expect(receipts[0]!.text).toContain("$19.99");
    expect(receipts[0]!.text).toMatch(/http:\/\/localhost:3000\/download\/\S+/);
    expect(receipts[0]!.text).toMatch(/http:\/\/localhost:3000\/library\?token=\S+/);
    expect(receipts[0]!.text).toContain("3 times until");
  });

  it("refunds at once, and tells the buyer, when the paid unit can no longer be delivered", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { inventoryType: "limited", quantityAvailable: "1" },
      { cover: false },
    );
    const sessionId = sessionIdOf((await checkout(product.id)).json().url);
    // The hold was released (as if the expiry janitor ran) and someone else took the last unit.
    await t.db
      .updateTable("checkouts")
      .set({ reservation: "released" })
      .where("stripe_session_id", "=", sessionId)
      .execute();
    const email = `late-${Date.now()}@example.com`;
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
    await eventually(async () => expect((await ordersOf(product.id)).length).toBe(1));
    const [order] = await ordersOf(product.id);
    expect(order!.status).toBe("refunded");
    const account = order!.stripe_account_id;
    const refunds = await t.stripe.refunds.list(
      { payment_intent: order!.payment_intent_id! },
      { stripeAccount: account },
    );
    expect(refunds.data[0]?.amount).toBe(1999);
    expect((await emailsTo(email)).map((e) => e.subject)).toEqual(["Refunded: The Guide"]);
  });
});

describe("downloads", () => {
  it("serves the seller's exact bytes, three times, then refuses the fourth", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const sessionId = await buy(product.id, "reader@example.com");
    const token = await downloadToken(sessionId);
    const page = await t.request({ method: "GET", url: `/api/downloads/${token}` });
    expect(page.json()).toMatchObject({
      purchase: { files: [{ name: "guide.pdf", downloadsUsed: 0, downloadsRemaining: 3 }] },
    });

    for (const remaining of [2, 1, 0]) {
      const started = await startDownload(token);
      expect(started.json().downloadsRemaining).toBe(remaining);
      const file = await t.app.server.inject({ method: "GET", url: started.json().url });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(minimalPdf())).toBe(true);
      expect(file.headers["content-disposition"]).toContain("guide.pdf");
      const resumed = await t.app.server.inject({
        method: "GET",
        url: started.json().url,
        headers: { range: "bytes=5-" },
      });
      expect(resumed.statusCode).toBe(206);
    }
    const fourth = await startDownload(token);
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json().message).toBe(ORDER_MESSAGES.limitReached);
    const logs = await t.db
      .selectFrom("download_logs")
      .selectAll()
      .innerJoin("orders", "orders.id", "download_logs.order_id")
      .where("orders.stripe_session_id", "=", sessionId)
      .execute();
    expect(logs).toHaveLength(3);

    const order = (await ordersOf(product.id))[0]!;
    const reset = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/reset-downloads`,
      cookie: seller.cookie,
    });
    expect(reset.statusCode).toBe(204);
    expect((await startDownload(token)).statusCode).toBe(200);
  });

  it("refuses after 30 days, and a 24-hour link after 24 hours (with the product to ask again)", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const sessionId = await buy(product.id, "late-reader@example.com");
    const token = await downloadToken(sessionId);
    t.clock.advance(DAY_MS + 1000);
    const expired = await startDownload(token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({
      code: "link_expired",
      details: { productId: product.id, email: "l***@example.com" },
    });
    // The success page no longer answers a day later (the seller knows session ids too)...
    expect((await lookup(sessionId)).statusCode).toBe(404);
    // ...and viewing an expired or valid link never renews it; the receipt's library does.
    const [fresh] = (await libraryOf("late-reader@example.com")).purchases;
    const freshToken = fresh.downloadPath.replace("/download/", "");
    const viewed = await t.request({ method: "GET", url: `/api/downloads/${freshToken}` });
    expect(viewed.json().purchase.downloadPath).toBe(fresh.downloadPath);
    expect((await startDownload(freshToken)).statusCode).toBe(200);
    t.clock.advance(30 * DAY_MS);
    expect((await libraryOf("late-reader@example.com")).purchases[0]).toMatchObject({
      downloadPath: null,
      unavailableReason: ORDER_MESSAGES.windowOver,
    });
  });

  it("refuses tampered links, and links forged for another order", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const token = await downloadToken(await buy(product.id, "a@example.com"));
    const other = (await ordersOf(product.id))[0]!;
    const [payload, mac] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, orderId: `${other.id}x` })).toString("base64url")}.${mac}`;
    for (const bad of [forged, `${token}x`, "garbage", `${payload}.${"A".repeat(43)}`]) {
      const response = await startDownload(bad);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(ORDER_MESSAGES.linkInvalid);
    }
  });

  it("a refund revokes the download at once, and the sale leaves the totals", async () => {
    const shop = await readySeller(t);
    const product = await createProduct(t, shop.cookie, { price: "10" }, { cover: false });
    const keep = await buy(product.id, "keeper@example.com");
    const refundMe = await buy(product.id, "refundee@example.com");
    const stats = async () =>
      (await t.request({ method: "GET", url: "/api/dashboard/stats", cookie: shop.cookie })).json();
    expect(await stats()).toMatchObject({ unitsSold: 2, totalRevenueCents: 2000 });

    const token = await downloadToken(refundMe);
    const order = (await ordersOf(product.id)).find((o) => o.customer_email === "refundee@example.com")!;
    const refunded = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/refund`,
      cookie: shop.cookie,
    });
    expect(refunded.statusCode).toBe(204);
    const denied = await startDownload(token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(ORDER_MESSAGES.refunded);
    expect(await stats()).toMatchObject({ unitsSold: 1, totalRevenueCents: 1000 });
    expect(
      (await t.request({ method: "POST", url: `/api/orders/${order.id}/refund`, cookie: shop.cookie }))
        .statusCode,
    ).toBe(409);
    expect((await startDownload(await downloadToken(keep))).statusCode).toBe(200);
    await eventually(async () =>
      expect((await emailsTo("refundee@example.com")).map((e) => e.subject)).toContain(
        "Refund issued: The Guide",
      ),
    );
  });

  it("a refund made in the seller's Stripe dashboard (charge.refunded) revokes the order too", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const token = await downloadToken(await buy(product.id, "elsewhere@example.com"));
    const order = (await ordersOf(product.id))[0]!;
    await t.stripe.refunds.create(
      { payment_intent: order.payment_intent_id! },
      { stripeAccount: order.stripe_account_id },
    );
    await eventually(async () => expect((await ordersOf(product.id))[0]!.status).toBe("refunded"));
    expect((await startDownload(token)).statusCode).toBe(403);
  });
});

describe("refunds made elsewhere", () => {
  it("a refund already made in Stripe (its event not yet here) is taken as done, not a 500", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    await buy(product.id, "twice@example.com");
    const order = (await ordersOf(product.id))[0]!;
    t.emulator.configureWebhooks({});
    try {
      await t.stripe.refunds.create(
        { payment_intent: order.payment_intent_id! },
        { stripeAccount: order.stripe_account_id },
      );
      const ours = await t.request({
        method: "POST",
        url: `/api/orders/${order.id}/refund`,
        cookie: seller.cookie,
      });
      expect(ours.statusCode).toBe(204);
      expect((await ordersOf(product.id))[0]!.status).toBe("refunded");
    } finally {
      t.emulator.configureWebhooks({
        platform: { url: `${t.url}/api/webhooks/stripe`, secret: WEBHOOK_SECRETS.platform },
        connect: { url: `${t.url}/api/webhooks/stripe-connect`, secret: WEBHOOK_SECRETS.connect },
      });
    }
  });
});

describe("library and resend", () => {
  it("the receipt's library link lists every purchase of that email, across sellers", async () => {
    const email = `collector-${Date.now()}@example.com`;
    const shop = await readySeller(t);
    await buy((await createProduct(t, seller.cookie, { title: "Alpha" }, { cover: false })).id, email);
    await buy((await createProduct(t, shop.cookie, { title: "Beta" }, { cover: false })).id, email);
    const receipt = (await emailsTo(email)).at(-1)!;
    const libraryUrl = new URL(receipt.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0]);
    const library = await t.request({
      method: "GET",
      url: `/api/library?token=${encodeURIComponent(libraryUrl.searchParams.get("token")!)}`,
    });
    expect(library.statusCode).toBe(200);
    expect(library.json().purchases.map((p: { productTitle: string }) => p.productTitle)).toEqual([
      "Beta",
      "Alpha",
    ]);
    expect((await t.request({ method: "GET", url: "/api/library?token=forged.token" })).statusCode).toBe(400);
  });

  it("a buyer account sees its library once a receipt link proves the email is theirs", async () => {
    const email = `account-${Date.now()}@example.com`;
    await buy((await createProduct(t, seller.cookie, { title: "Gamma" }, { cover: false })).id, email);
    const buyer = await signUp(t, email);
    const me = () => t.request({ method: "GET", url: "/api/library/me", cookie: buyer.cookie });
    expect((await me()).statusCode).toBe(403);
    const receipt = (await emailsTo(email)).find((mail) => mail.subject.startsWith("Your receipt"))!;
    const token = new URL(
      receipt.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0],
    ).searchParams.get("token")!;
    const opened = await t.request({
      method: "GET",
      url: `/api/library?token=${encodeURIComponent(token)}`,
      cookie: buyer.cookie,
    });
    expect(opened.statusCode).toBe(200);
    expect((await me()).json().purchases.map((p: { productTitle: string }) => p.productTitle)).toEqual([
      "Gamma",
    ]);
    // Someone else's account with another email learns nothing from the same link.
    const other = await signUp(t);
    await t.request({
      method: "GET",
      url: `/api/library?token=${encodeURIComponent(token)}`,
      cookie: other.cookie,
    });
    expect(
      (await t.request({ method: "GET", url: "/api/library/me", cookie: other.cookie })).statusCode,
    ).toBe(403);
  });

  it("resends a link only to the purchase email, answering the same either way", async () => {
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    const email = `resend-${Date.now()}@example.com`;
    await buy(product.id, email);
    const before = (await emailsTo(email)).length;
    const resend = (who: string) =>
      t.request({
        method: "POST",
        url: "/api/download-links/resend",
        body: { productId: product.id, email: who },
      });
    const [known, unknown] = [await resend(email.toUpperCase()), await resend("stranger@example.com")];
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe(ORDER_MESSAGES.resendSent);
    expect((await emailsTo(email)).length).toBe(before + 1);
    expect(await emailsTo("stranger@example.com")).toHaveLength(0);
    for (let i = 0; i < 3; i++) await resend(email);
    expect((await resend(email)).statusCode).toBe(429);
  });
});

describe("the seller's sales", () => {
  it("pages newest first on the server, and only ever shows and refunds the seller's own orders", async () => {
    const shop = await readySeller(t);
    const rival = await readySeller(t);
    const product = await createProduct(t, shop.cookie, { price: "5" }, { cover: false });
    for (let i = 0; i < 3; i++) await buy(product.id, `page-${i}@example.com`);
    const first = (
      await t.request({ method: "GET", url: "/api/orders?limit=2", cookie: shop.cookie })
    ).json() as SalesPage;
    expect(first.total).toBe(3);
    expect(first.sales.map((s) => s.customerEmail)).toEqual(["page-2@example.com", "page-1@example.com"]);
    const second = (
      await t.request({
        method: "GET",
        url: `/api/orders?limit=2&before=${first.nextCursor}`,
        cookie: shop.cookie,
      })
    ).json() as SalesPage;
    expect(second.sales.map((s) => s.customerEmail)).toEqual(["page-0@example.com"]);
    expect(second.nextCursor).toBeNull();
    // A page past the oldest order is empty and still carries the seller's totals.
    const beforeEveryOrder = Buffer.from("2000-01-01T00:00:00.000Z|ord").toString("base64url");
    const pastTheEnd = (
      await t.request({ method: "GET", url: `/api/orders?before=${beforeEveryOrder}`, cookie: shop.cookie })
    ).json() as SalesPage;
    expect(pastTheEnd).toEqual({ sales: [], total: 3, completed: 3, nextCursor: null });

    const rivalView = (
      await t.request({ method: "GET", url: "/api/orders", cookie: rival.cookie })
    ).json() as SalesPage;
    expect(rivalView.total).toBe(0);
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${first.sales[0]!.id}/refund`,
      cookie: rival.cookie,
    });
    expect(refund.statusCode).toBe(404);
    const reset = await t.request({
      method: "POST",
      url: `/api/orders/${first.sales[0]!.id}/reset-downloads`,
      cookie: rival.cookie,
    });
    expect(reset.statusCode).toBe(404);
    expect((await t.request({ method: "GET", url: "/api/orders" })).statusCode).toBe(401);
  });

  it("exports the CSV of the product rules (The calls it makes), dates in the seller's time zone", async () => {
    const shop = await readySeller(t);
    const product = await createProduct(
      t,
      shop.cookie,
      { title: 'Tips, "tricks" & more', price: "12.5" },
      { cover: false },
    );
    await buy(product.id, "=cmd@example.com");
    const order = (await ordersOf(product.id))[0]!;
    await t.db
      .updateTable("orders")
      .set({ created_at: new Date("2026-03-05T14:07:00Z") })
      .where("id", "=", order.id)
      .execute();
    const response = await t.request({
      method: "GET",
      url: "/api/orders/export.csv?tz=America/New_York",
      cookie: shop.cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    expect(response.headers["content-disposition"]).toMatch(
      /attachment; filename="customer-sales-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(response.body).toBe(
      'Customer Email,Product,Amount,Date,Discount Code,Amount Saved,Period Start,Period End,Tax,Tax Rate,Tax Jurisdiction,Buyer Country,Tax Note,Currency,Settled,Settlement Currency,Dispute\n\'=cmd@example.com,"Tips, ""tricks"" & more",12.50,"Mar 05, 2026 09:07",,0.00,,,0.00,,,,,USD,12.50,USD,\n',
    );
    expect(
      (await t.request({ method: "GET", url: "/api/orders/export.csv?tz=Mars/Base", cookie: shop.cookie }))
        .statusCode,
    ).toBe(400);
  });
});
