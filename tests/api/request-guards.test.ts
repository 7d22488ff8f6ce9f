import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import helmet from "helmet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, SLOW_ANSWER_MS } from "../../src/server/http/logger";
import { REQUEST_GUARD_MESSAGES } from "../../src/server/http/request-guards";
import { control } from "./support/emulator-control";
import { createProduct, readySeller } from "./support/sellers";
import { APP_URL, createTestApp, signUp, type TestApp } from "./support/test-app";
import { eventually } from "./support/wait";

let t: TestApp;
/** The same deployment serving a built web app, for pages with link previews. */
let web: TestApp;
let webDir: string;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  webDir = await mkdtemp(path.join(tmpdir(), "flatfee-web-"));
  await writeFile(
    path.join(webDir, "index.html"),
    '<!doctype html><html><head><title>Flatfee</title></head><body><div id="root"></div></body></html>',
  );
  web = await createTestApp({ sharing: t, webDistDir: webDir });
  seller = await readySeller(t);
});
afterAll(async () => {
  await web.close();
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

const orderRow = (id: string) =>
  t.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** A buyer pays for a new product of the seller; returns the order once the webhook made it. */
async function sale() {
  const product = await createProduct(t, seller.cookie, {}, { cover: false });
  const checkout = await t.request({ method: "POST", url: "/api/checkout", body: { productId: product.id } });
  const sessionId = new URL(checkout.json().url).pathname.split("/").pop()!;
  await control(t.emulator).payCheckout(sessionId, "4242424242424242", `buyer-${Date.now()}@example.com`);
  let orderId = "";
  await eventually(async () => {
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("product_id", "=", product.id)
      .executeTakeFirst();
    expect(order).toBeDefined();
    orderId = order!.id;
  });
  return orderRow(orderId);
}

/** A request exactly as given: no Origin unless the test sets one (curl, the SDK, a forged form). */
const raw = (options: {
  method: "POST" | "PUT";
  url: string;
  headers: Record<string, string>;
  payload?: string;
}) => t.app.server.inject(options);

describe("cross-site requests", () => {
  it("refuses a refund posted from another site, also as text/plain, and refunds nothing", async () => {
    const order = await sale();
    const refund = (headers: Record<string, string>, payload?: string) =>
      raw({
        method: "POST",
        url: `/api/orders/${order.id}/refund`,
        headers: { cookie: seller.cookie, ...headers },
        ...(payload === undefined ? {} : { payload }),
      });

    const forged = await refund({ origin: "http://evil.test", "content-type": "text/plain" }, "x");
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ code: "cross_origin", message: REQUEST_GUARD_MESSAGES.crossOrigin });
    // A browser that sends Fetch Metadata but no Origin is judged by Sec-Fetch-Site.
    expect((await refund({ "sec-fetch-site": "cross-site" })).statusCode).toBe(403);
    // Without Origin (not a browser, so no victim's cookie), a body type the route does not take is refused.
    const plain = await refund({ "content-type": "text/plain" }, "x");
    expect(plain.statusCode).toBe(415);
    expect(plain.json()).toEqual({
      code: "unsupported_media_type",
      message: REQUEST_GUARD_MESSAGES.unsupportedMediaType,
    });
    expect((await orderRow(order.id)).status).toBe("completed");

    const own = await t.request({
      method: "POST",
      url: `/api/orders/${order.id}/refund`,
      cookie: seller.cookie,
    });
    expect(own.statusCode, own.body).toBe(204);
    expect((await orderRow(order.id)).status).toBe("refunded");
  });

  it("refuses a form on another port of the same host, and keeps working for clients without Origin", async () => {
    const order = await sale();
    await t.db.updateTable("orders").set({ downloads_used: 2 }).where("id", "=", order.id).execute();
    const reset = (headers: Record<string, string>, payload?: string) =>
      raw({
        method: "POST",
        url: `/api/orders/${order.id}/reset-downloads`,
        headers: { cookie: seller.cookie, ...headers },
        ...(payload === undefined ? {} : { payload }),
      });

    const fromOtherPort = await reset(
      {
        origin: "http://localhost:4000",
        "sec-fetch-site": "same-site",
        "content-type": "application/x-www-form-urlencoded",
      },
      "a=1",
    );
    expect(fromOtherPort.statusCode).toBe(403);
    expect((await reset({ origin: "http://localhost:4000" })).statusCode).toBe(403);
    expect((await reset({ origin: "null" })).statusCode).toBe(403);
    expect((await orderRow(order.id)).downloads_used).toBe(2);

    // curl, the SDK, app.inject: no Origin and no Fetch Metadata.
    expect((await reset({})).statusCode).toBe(204);
    expect((await orderRow(order.id)).downloads_used).toBe(0);
    // The app's own page.
    expect((await reset({ origin: APP_URL, "sec-fetch-site": "same-origin" })).statusCode).toBe(204);
  });
});

describe("JSON bodies", () => {
  const postJson = (url: string, payload: string, cookie?: string) =>
    t.app.server.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      payload,
    });
  const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

  it("refuses nesting deeper than 32 levels with a 400 before anything walks the body", async () => {
    const user = await signUp(t);
    const deepest = await postJson("/api/auth/update-user", nested(300_000), user.cookie);
    expect(deepest.statusCode).toBe(400);
    expect(deepest.json()).toEqual({ code: "too_deeply_nested", message: REQUEST_GUARD_MESSAGES.tooDeep });
    for (const route of ["reset-password", "update-user", "change-password", "two-factor/enable"]) {
      const response = await postJson(`/api/auth/${route}`, nested(5000), user.cookie);
      expect(response.statusCode, route).toBe(400);
    }
    expect((await postJson("/api/checkout", nested(33))).statusCode).toBe(400);
    expect((await postJson("/api/checkout", nested(33))).json().code).toBe("too_deeply_nested");
  });

  it("counts only real nesting: brackets inside strings are text", async () => {
    const saved = await t.app.server.inject({
      method: "PUT",
      url: "/api/store-settings",
      headers: { "content-type": "application/json", cookie: seller.cookie, origin: APP_URL },
      payload: JSON.stringify({ storeName: `${"[{".repeat(30)}\\"` }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().storeName).toBe(`${"[{".repeat(30)}\\"`);
  });
});

describe("NUL characters", () => {
  it("answers 400 for a NUL in a path, query or body on every route, and changes nothing", async () => {
    const cookie = seller.cookie;
    const nul = "a\u0000b";
    const inPath = "a%00b";
    const requests: Array<Parameters<TestApp["request"]>[0]> = [
      { method: "POST", url: `/api/orders/${inPath}/refund`, cookie },
      { method: "POST", url: `/api/orders/${inPath}/reset-downloads`, cookie },
      { method: "GET", url: `/api/orders/by-session/${inPath}` },
      {
        method: "POST",
        url: "/api/products",
        cookie,
        body: { title: nul, description: "", price: "1.00", inventoryType: "unlimited", fileUploadId: nul },
      },
      { method: "DELETE", url: `/api/products/${inPath}`, cookie },
      { method: "GET", url: `/api/public/products/${inPath}` },
      { method: "GET", url: `/api/public/stores/${inPath}` },
      { method: "POST", url: `/api/public/stores/${inPath}/views`, headers: { "user-agent": "Mozilla/5.0" } },
      { method: "PUT", url: "/api/store-settings", cookie, body: { storeName: nul } },
      {
        method: "POST",
        url: "/api/uploads",
        cookie,
        body: { purpose: "product-file", fileName: `${nul}.pdf`, sizeBytes: 10, contentType: "" },
      },
      { method: "DELETE", url: `/api/uploads/${inPath}`, cookie },
      { method: "POST", url: `/api/uploads/${inPath}/complete`, cookie },
      { method: "POST", url: "/api/checkout", body: { productId: nul } },
      {
        method: "POST",
        url: "/api/auth/reset-password",
        body: { token: nul, newPassword: "a-long-password-1" },
      },
      { method: "POST", url: "/api/auth/update-user", cookie, body: { name: nul } },
      { method: "GET", url: `/api/library?token=${inPath}` },
      { method: "POST", url: "/api/products", cookie, body: { [nul]: "key" } },
    ];
    for (const request of requests) {
      const response = await t.request(request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(400);
      expect(response.json()).toEqual({ code: "validation_error", message: REQUEST_GUARD_MESSAGES.nul });
    }
    const profile = await t.db
      .selectFrom("profiles")
      .select("store_name")
      .where("id", "=", seller.userId)
      .executeTakeFirstOrThrow();
    expect(profile.store_name ?? "").not.toContain("\u0000");
  });
});

describe("server errors", () => {
  it("answers Better Auth's 5xx with our error body and a request id", async () => {
    const broken = await createTestApp();
    try {
      const user = await signUp(broken);
      // Sessions cannot be stored: Better Auth fails inside and answers a bare 500.
      await broken.db.schema.alterTable("session").renameTo("session_unavailable").execute();
      const response = await broken.request({
        method: "POST",
        url: "/api/auth/sign-in/email",
        body: { email: user.email, password: user.password },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        code: "internal",
        message: "Internal error",
        requestId: expect.any(String),
      });
    } finally {
      await broken.close();
    }
  });

  it("answers a page request with a JSON 503 and a request id while the web app is not built", async () => {
    const response = await t.request({ method: "GET", url: "/dashboard" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      code: "web_app_not_built",
      message: "The web app is not built yet: run `npm run build`.",
      requestId: expect.any(String),
    });
  });
});

describe("text with $ patterns", () => {
  const meta = (html: string, key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];

  it("writes $', $` and $& in a title or description literally into the link preview", async () => {
    const product = await createProduct(
      t,
      seller.cookie,
      { title: "Save $' now $` and $&", description: "Costs $' less $&" },
      { cover: false },
    );
    const page = await web.request({ method: "GET", url: `/product/${product.id}` });
    expect(page.statusCode).toBe(200);
    expect(meta(page.body, "og:title")).toBe("Save $' now $` and $&amp; · $19.99");
    expect(meta(page.body, "og:description")).toBe("Costs $' less $&amp;");
    expect(page.body.match(/<\/head>/g)).toHaveLength(1);
    expect(page.body.match(/<body[ >]/g)).toHaveLength(1);
  });

  it("writes them literally into the dev mailbox's banner", async () => {
    const email = await t.db
      .insertInto("outbox_emails")
      .values({
        to_address: "buyer@example.com",
        subject: "Receipt $' for $& and $`",
        html: "<html><head></head><body><p>Hello</p></body></html>",
        text: "Hello",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const page = await t.request({ method: "GET", url: `/dev/mailbox/${email.id}` });
    expect(page.body).toContain("Subject: Receipt $' for $&amp; and $`</div>");
    expect(page.body.match(/<body/g)).toHaveLength(1);
    expect(page.body.match(/<p>Hello<\/p>/g)).toHaveLength(1);
  });
});

describe("logs", () => {
  it("never show download, library, storage, checkout-session or reset tokens", async () => {
    const lines: string[] = [];
    const logged = await createTestApp({
      sharing: t,
      logger: createLogger("info", { write: (line: string) => void lines.push(line) }),
    });
    const secret = "s3cret-t0ken";
    const urls = [
      `/download/${secret}`,
      `/api/downloads/${secret}`,
      `/files/download/${secret}`,
      `/library/${secret}`,
      `/library?token=${secret}`,
      `/api/library?token=${secret}`,
      `/auth?reset=true&token=${secret}`,
      `/api/auth/reset-password/${secret}?callbackURL=%2Fauth`,
      `/api/auth/verify-email?token=${secret}&callbackURL=%2F`,
      `/success?session_id=${secret}`,
      `/api/orders/by-session/${secret}`,
    ];
    for (const url of urls) await logged.request({ method: "GET", url });
    await logged.request({ method: "POST", url: `/api/downloads/${secret}` });
    await logged.request({ method: "PUT", url: `/files/upload/${secret}`, body: "bytes" });
    await logged.close();

    const logged_urls = lines
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string } })
      .filter((entry) => entry.msg === "request completed")
      .map((entry) => entry.req?.url);
    expect(logged_urls).toHaveLength(urls.length + 2);
    expect(lines.join("\n")).not.toContain(secret);
    expect(logged_urls).toContain("/download/[redacted]");
    expect(logged_urls).toContain("/auth?reset=true&token=[redacted]");
    expect(logged_urls).toContain("/api/auth/verify-email?token=[redacted]&callbackURL=%2F");
  });
});

describe("request logs", () => {
  /** A second instance of the deployment whose JSON log lines are collected. */
  async function loggedInstance() {
    const lines: string[] = [];
    const instance = await createTestApp({
      sharing: t,
      logger: createLogger("info", { write: (line: string) => void lines.push(line) }),
    });
    const entries = () =>
      lines.map(
        (line) =>
          JSON.parse(line) as {
            msg: string;
            sampled?: number;
            responseTime?: number;
            req?: { url: string };
            res?: { statusCode: number };
          },
      );
    return { instance, lines, entries };
  }

  it("never show an API key sent in the query, under any name", async () => {
    const { instance, lines, entries } = await loggedInstance();
    const key = "ff_live_AbCdEfGhIj0123456789klmnopqrstuvwxyzABCD";
    const randomKey = "Zq3xV9tLm2Pw8sKd4RfB7nHc";
    const urls = [
      `/api/v1/products?api_key=${key}`,
      `/api/v1/products?key=${randomKey}`,
      `/api/v1/products?access_token=${randomKey}`,
      `/api/v1/products?limit=5&apiKey=${key}`,
      `/api/v1/sales?q=${key}`,
      `/api/v1/sales?${randomKey}`,
    ];
    for (const url of urls) await instance.request({ method: "GET", url });
    // What is not a key stays readable.
    const productId = "0b6f4c7e-3a1d-4e52-9c0a-5f2d8e1b7a93";
    await instance.request({
      method: "GET",
      url: `/product/${productId}?utm_source=newsletter&utm_medium=email`,
    });
    await instance.close();

    expect(lines.join("\n")).not.toContain(key);
    expect(lines.join("\n")).not.toContain(randomKey);
    const logged = entries()
      .filter((entry) => entry.msg === "request completed")
      .map((entry) => entry.req?.url);
    expect(logged).toContain("/api/v1/products?api_key=[redacted]");
    expect(logged).toContain("/api/v1/products?limit=5&apiKey=[redacted]");
    expect(logged).toContain("/api/v1/sales?q=[redacted]");
    expect(logged).toContain(`/product/${productId}?utm_source=newsletter&utm_medium=email`);
  });

  it("are one line per request, one in 100 for kept public pages, every one for other answers", async () => {
    const product = await createProduct(t, seller.cookie);
    const { instance, entries } = await loggedInstance();
    for (let i = 0; i < 150; i++) await instance.request({ method: "GET", url: `/product/${product.id}` });
    for (let i = 0; i < 3; i++) await instance.request({ method: "GET", url: "/api/no-such-route" });
    await instance.close();

    const requests = entries().filter((entry) => entry.req);
    expect(requests.every((entry) => entry.msg === "request completed")).toBe(true);
    const pages = requests.filter((entry) => entry.req?.url === `/product/${product.id}`);
    // The first (rendered, then kept) and the 101st, each standing for 100; a slow answer is logged
    // whatever its turn (a loaded machine makes some), and only a slow one.
    const sampled = pages.filter((entry) => entry.sampled !== undefined);
    expect(sampled.map((entry) => entry.sampled)).toEqual([100, 100]);
    const unsampled = pages.filter((entry) => entry.sampled === undefined);
    expect(unsampled.filter((entry) => (entry.responseTime ?? 0) < SLOW_ANSWER_MS)).toEqual([]);
    const missing = requests.filter((entry) => entry.req?.url === "/api/no-such-route");
    expect(missing.map((entry) => entry.res?.statusCode)).toEqual([404, 404, 404]);
  });
});

/** /api/events read as raw text, with how it ended: cleanly (the server ended it) or abruptly. */
async function rawEventStream(baseUrl: string, cookie: string) {
  const response = await fetch(`${baseUrl}/api/events`, { headers: { cookie } });
  expect(response.status).toBe(200);
  const stream: { text: string; ended?: "cleanly" | "abruptly" } = { text: "" };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          stream.ended = "cleanly";
          return;
        }
        stream.text += value;
      }
    } catch {
      stream.ended ??= "abruptly";
    }
  })();
  return { stream, close: () => reader.cancel().catch(() => undefined) };
}

describe("event streams", () => {
  it("keeps 10 per account: the 11th closes the oldest, which waits a minute before reconnecting", async () => {
    const user = await signUp(t);
    const opened = [];
    for (let i = 0; i < 11; i++) opened.push(await rawEventStream(t.url!, user.cookie));
    const [oldest, ...rest] = opened;
    await eventually(async () => expect(oldest!.stream.ended).toBe("cleanly"));
    expect(oldest!.stream.text).toContain("retry: 60000\n");

    await t.events.publish(user.userId, { type: "sales.changed" });
    await eventually(async () => {
      for (const { stream } of rest) expect(stream.text).toContain('{"type":"sales.changed"}');
    });
    expect(rest.map(({ stream }) => stream.ended)).toEqual(Array(10).fill(undefined));
    await Promise.all(opened.map(({ close }) => close()));
  });

  it("ends open streams cleanly when the server closes, so closing does not wait for them", async () => {
    const instance = await createTestApp({ sharing: t, listen: true });
    const user = await signUp(instance);
    const { stream } = await rawEventStream(instance.url!, user.cookie);
    await instance.close();
    await eventually(async () => expect(stream.ended).toBe("cleanly"));
  });
});

describe("store visibility", () => {
  it("gives an account without a plan no public store: the unknown-store answer, for its owner too", async () => {
    const free = await signUp(t);
    const unknown = await t.request({ method: "GET", url: "/api/public/stores/no-such-store" });
    const store = await t.request({ method: "GET", url: `/api/public/stores/${free.userId}` });
    expect(store.statusCode).toBe(404);
    expect(store.json()).toEqual(unknown.json());
    const own = await t.request({
      method: "GET",
      url: `/api/public/stores/${free.userId}`,
      cookie: free.cookie,
    });
    expect(own.json()).toEqual(unknown.json());

    const page = await web.request({ method: "GET", url: `/store/${free.userId}` });
    expect(page.body).not.toContain("og:title");

    const view = await t.request({
      method: "POST",
      url: `/api/public/stores/${free.userId}/views`,
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36" },
    });
    expect(view.statusCode).toBe(204);
    const views = await t.db
      .selectFrom("store_views")
      .select("id")
      .where("store_owner_id", "=", free.userId)
      .execute();
    expect(views).toEqual([]);
  });
});

describe("security headers", () => {
  it("are Helmet's with our policy, exactly, also on an event stream (a hijacked answer)", async () => {
    const helmetSent = new Map<string, string>();
    const raw = {
      setHeader: (name: string, value: string) => helmetSent.set(name.toLowerCase(), String(value)),
      removeHeader: (name: string) => helmetSent.delete(name.toLowerCase()),
    };
    const user = await signUp(t);
    const stream = await fetch(`${t.url}/api/events`, { headers: { cookie: user.cookie } });
    await stream.body?.cancel();
    const health = await fetch(`${t.url}/api/health`);
    for (const response of [stream, health]) {
      const policy = String(response.headers.get("content-security-policy"));
      const formAction = policy.match(/form-action 'self' (\S+);/)?.[1] ?? "";
      helmetSent.clear();
      helmet({
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            imgSrc: ["'self'", "data:", "blob:", "https:"],
            styleSrc: ["'self'", "'unsafe-inline'"],
            connectSrc: ["'self'"],
            frameAncestors: ["'none'"],
            formAction: ["'self'", formAction],
            upgradeInsecureRequests: null,
          },
        },
        crossOriginEmbedderPolicy: false,
      })({} as never, raw as never, () => {});
      expect(helmetSent.size).toBe(12);
      for (const [name, value] of helmetSent) expect(response.headers.get(name), name).toBe(value);
    }
  });

  it("go with every answer: the policy forbids framing and foreign scripts, and allows Checkout as a form's target", async () => {
    for (const url of ["/api/health", "/api/no-such-route", "/"]) {
      const response = await t.request({ method: "GET", url });
      const policy = String(response.headers["content-security-policy"]);
      expect(policy, url).toContain("default-src 'self'");
      expect(policy, url).toContain("frame-ancestors 'none'");
      expect(policy, url).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:\d+/);
      expect(response.headers["x-content-type-options"], url).toBe("nosniff");
      expect(response.headers["strict-transport-security"], url).toBeDefined();
      expect(response.headers["referrer-policy"], url).toBe("no-referrer");
    }
  });
});
