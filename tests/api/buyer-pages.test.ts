import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, type TestApp } from "./support/test-app";

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
const page = (url: string, ip?: string) => t.request({ method: "GET", url, ...(ip ? { ip } : {}) });
/** What a browser sends for a form on our own page. */
const postForm = (url: string, fields: Record<string, string> = {}, site = "same-origin") =>
  t.request({
    method: "POST",
    url,
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": site },
  });
const downloadsUsed = async (sessionId: string) =>
  (
    await t.db
      .selectFrom("orders")
      .select("downloads_used")
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirstOrThrow()
  ).downloads_used;

/** A checkout of a new product, not paid yet: its session id. */
async function openCheckout(): Promise<string> {
  const product = await createProduct(t, seller.cookie, { title: "Ink <Studies>", price: "12.50" });
  const response = await t.request({ method: "POST", url: "/api/checkout", body: { productId: product.id } });
  expect(response.statusCode, response.body).toBe(200);
  return new URL(response.json().url).pathname.split("/").pop()!;
}

/** A paid purchase: its session id and the download page's path from the success page. */
async function paidPurchase(email = "reader@example.com") {
  const sessionId = await openCheckout();
  await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
  const success = await page(`/success?session_id=${sessionId}`);
  expect(success.statusCode).toBe(200);
  const downloadPath = /<form action="(\/download\/[^"]+)" method="post">/.exec(success.body)?.[1];
  expect(downloadPath, success.body).toBeDefined();
  return { sessionId, downloadPath: downloadPath!, success };
}

/** Follows a 303 to the file on local storage, as the browser does: the file's bytes. */
async function fileAt(location: string): Promise<Buffer> {
  const url = new URL(location, APP_URL);
  const file = await page(`${url.pathname}${url.search}`);
  expect(file.statusCode).toBe(200);
  return file.rawPayload;
}

function expectPrivate(response: Awaited<ReturnType<typeof page>>) {
  expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(response.headers["cache-control"]).toBe("no-store");
  expect(response.headers["referrer-policy"]).toBe("no-referrer");
  expect(response.body).toContain('<meta name="robots" content="noindex" />');
}

describe("/success rendered on the server", () => {
  it("without a session id is the not-found state at once, with a way home", async () => {
    const response = await page("/success");
    expect(response.statusCode).toBe(404);
    expectPrivate(response);
    expect(response.body).toContain(ORDER_MESSAGES.notFound.replace("'", "&#x27;"));
    expect(response.body).toMatch(/<a [^>]*href="\/"[^>]*>Return to Home<\/a>/);
    expect(response.body).not.toContain('http-equiv="refresh"');
  });

  it("while the payment is processing, refreshes itself once a second with the next try; 10 tries fit the rate limit", async () => {
    const sessionId = await openCheckout();
    const ip = "203.0.113.40";
    for (let tries = 0; tries < 10; tries++) {
      const url =
        tries === 0 ? `/success?session_id=${sessionId}` : `/success?session_id=${sessionId}&try=${tries}`;
      const response = await page(url, ip);
      expect(response.statusCode).toBe(200);
      expectPrivate(response);
      expect(response.body).toContain(ORDER_MESSAGES.processing);
      expect(response.body).toContain(
        `<meta http-equiv="refresh" content="1;url=/success?session_id=${sessionId}&amp;try=${tries + 1}" />`,
      );
    }
    // Paid just before the last look, from the same address: that look still reaches Stripe.
    await control(t.emulator).payCheckout(sessionId, "4242424242424242", "late@example.com");
    const last = await page(`/success?session_id=${sessionId}&try=10`, ip);
    expect(last.statusCode).toBe(200);
    expect(last.body).toContain("Thank you for your purchase!");
  });

  it("after the last try says it could not find the order, and stops refreshing", async () => {
    const sessionId = await openCheckout();
    for (const tries of ["10", "99"]) {
      const response = await page(`/success?session_id=${sessionId}&try=${tries}`);
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain("Return to Home");
      expect(response.body).not.toContain('http-equiv="refresh"');
    }
  });

  it("shows the paid order with its facts and a Download Your File form", async () => {
    const { success, downloadPath } = await paidPurchase("ada@example.com");
    expectPrivate(success);
    const html = success.body;
    expect(html).toContain("Thank you for your purchase!");
    expect(html).toContain("Ink &lt;Studies&gt;");
    expect(html).toContain("$12.50");
    expect(html).toContain("ada@example.com");
    expect(html).toContain("3 of 3 downloads left");
    expect(html).toMatch(/<button type="submit"[^>]*>.*Download Your File<\/button>/);
    expect(downloadPath).toMatch(/^\/download\/[\w.-]+$/);
  });
});

describe("/download/{token} rendered on the server", () => {
  it("shows the file and the downloads left; the form counts one download and answers 303 to the file", async () => {
    const { sessionId, downloadPath } = await paidPurchase();
    const before = await page(downloadPath);
    expect(before.statusCode).toBe(200);
    expectPrivate(before);
    expect(before.body).toContain("guide.pdf");
    expect(before.body).toContain("3 of 3 downloads left");
    expect(before.body).toContain(`<form action="${downloadPath}" method="post">`);
    expect(await downloadsUsed(sessionId)).toBe(0);

    const started = await postForm(downloadPath);
    expect(started.statusCode).toBe(303);
    expect(started.headers["cache-control"]).toBe("no-store");
    expect((await fileAt(String(started.headers.location))).equals(minimalPdf())).toBe(true);
    expect(await downloadsUsed(sessionId)).toBe(1);
    expect((await page(downloadPath)).body).toContain("2 of 3 downloads left");
  });

  it("a refused download renders the page with the reason and counts nothing", async () => {
    const { sessionId, downloadPath } = await paidPurchase();
    for (let i = 0; i < 3; i++) expect((await postForm(downloadPath)).statusCode).toBe(303);
    const refused = await postForm(downloadPath);
    expect(refused.statusCode).toBe(403);
    expectPrivate(refused);
    expect(refused.body).toContain(ORDER_MESSAGES.limitReached);
    expect(refused.body).toContain("All downloads used");
    expect(refused.body).not.toContain('method="post"');
    expect(await downloadsUsed(sessionId)).toBe(3);
  });

  it("a download posted from another site is refused and counts nothing", async () => {
    const { sessionId, downloadPath } = await paidPurchase();
    expect((await postForm(downloadPath, {}, "cross-site")).statusCode).toBe(403);
    expect(await downloadsUsed(sessionId)).toBe(0);
  });

  it("a forged link is invalid, with a way home", async () => {
    const response = await page("/download/not-a-real-token");
    expect(response.statusCode).toBe(400);
    expectPrivate(response);
    expect(response.body).toContain("Invalid download link");
    expect(response.body).toContain(ORDER_MESSAGES.linkInvalid);
    expect((await postForm("/download/not-a-real-token")).statusCode).toBe(400);
  });

  it("an expired link offers a form that emails a fresh one to the purchase email only", async () => {
    const { sessionId, downloadPath } = await paidPurchase("late-reader@example.com");
    t.clock.advance(DAY_MS + 1000);
    const expired = await page(downloadPath);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain("This download link has expired");
    expect(expired.body).toContain("l***@example.com");
    expect(expired.body).toContain(`action="${downloadPath}/resend-link"`);
    expect((await postForm(downloadPath)).statusCode).toBe(410);
    expect(await downloadsUsed(sessionId)).toBe(0);

    const badEmail = await postForm(`${downloadPath}/resend-link`, { email: "nope" });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.body).toMatch(/role="alert"[^>]*>[^<]+</);

    const sent = await postForm(`${downloadPath}/resend-link`, { email: "late-reader@example.com" });
    expect(sent.statusCode).toBe(410);
    expect(sent.body).toContain(ORDER_MESSAGES.resendSent.replace("'", "&#x27;"));
    const mails = await t.db
      .selectFrom("outbox_emails")
      .select("subject")
      .where("to_address", "=", "late-reader@example.com")
      .execute();
    expect(mails.map((mail) => mail.subject)).toContainEqual(expect.stringMatching(/^Your download link/));
  });

  it("asking a fresh link for a link that still works just shows its page", async () => {
    const { downloadPath } = await paidPurchase();
    const response = await postForm(`${downloadPath}/resend-link`, { email: "reader@example.com" });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(downloadPath);
  });
});
