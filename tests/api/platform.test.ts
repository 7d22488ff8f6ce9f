import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { healthSchema } from "../../src/contracts/health";
import { createTestApp, type TestApp } from "./support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.app.server.get("/api/test-only/boom", async () => {
    throw new Error("database password is hunter2");
  });
});
afterAll(async () => {
  await t.close();
});

describe("health", () => {
  it("reports database, storage, payments and mail from real checks", async () => {
    const response = await t.request({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(healthSchema.parse(response.json())).toEqual({
      status: "ok",
      services: { database: "ok", storage: "ok", payments: "ok", mail: "ok" },
    });
  });
});

describe("errors", () => {
  it("answers unknown API routes with a JSON 404", async () => {
    const response = await t.request({ method: "GET", url: "/api/nope" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "not_found" });
  });

  it("hides the details of a 5xx behind a request id", async () => {
    const response = await t.request({ method: "GET", url: "/api/test-only/boom" });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({ code: "internal", message: "Internal error", requestId: expect.any(String) });
    expect(response.body).not.toContain("hunter2");
  });

  it("answers a malformed JSON body with a 400, not a 500", async () => {
    const response = await t.app.server.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBeTruthy();
  });

  it("says the web app is not built for page routes when there is no build", async () => {
    const response = await t.request({ method: "GET", url: "/some/page" });
    expect(response.statusCode).toBe(503);
  });
});

describe("dev mailbox (embedded mode)", () => {
  it("lists sent emails and shows each one with its links", async () => {
    await t.outbox.enqueue({
      to: "buyer@example.com",
      subject: "Hello <there>",
      html: '<html><body><a href="http://localhost:3000/x">Open</a></body></html>',
      text: "Open: http://localhost:3000/x",
    });
    const list = await t.request({ method: "GET", url: "/dev/mailbox" });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain("Hello &lt;there&gt;");
    const id = list.body.match(/href="\/dev\/mailbox\/(\d+)"/)?.[1];
    const message = await t.request({ method: "GET", url: `/dev/mailbox/${id}` });
    expect(message.body).toContain('href="http://localhost:3000/x"');
    expect(message.body).toContain("buyer@example.com");
  });

  it("answers an unknown or malformed email id with 404", async () => {
    expect((await t.request({ method: "GET", url: "/dev/mailbox/999999" })).statusCode).toBe(404);
    expect((await t.request({ method: "GET", url: "/dev/mailbox/abc" })).statusCode).toBe(404);
  });
});
