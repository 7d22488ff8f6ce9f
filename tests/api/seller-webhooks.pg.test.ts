import { afterAll, beforeAll, expect, it } from "vitest";
import { queueDeliveries } from "../../src/server/features/seller-webhooks/queue-events";
import { subscribedSeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";
import { startWebhookReceiver } from "./support/webhook-receiver";

const policy = { requireHttps: false, allowPrivateHosts: ["127.0.0.1"] };
let first: TestApp;
let second: TestApp;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  // Both work the queue only when the test says so: at once, racing for the same jobs.
  first = await createTestApp({ listen: true, webhookPolicy: policy, jobsInBackground: false });
  second = await createTestApp({ sharing: first, webhookPolicy: policy, jobsInBackground: false });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await second.close();
  await first.close();
});

it("two instances working the queue at once send each delivery exactly once", async () => {
  // On the plan: only a seller on it may add endpoints.
  const seller = await subscribedSeller(first);
  const created = await first.request({
    method: "POST",
    url: "/api/webhook-endpoints",
    cookie: seller.cookie,
    body: { url: `${receiver.url}/both`, events: ["sale.completed"] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const endpointId = created.json().endpoint.id as string;
  const now = first.clock.now();
  const ids = [];
  for (let i = 0; i < 40; i++) {
    ids.push(
      ...(await queueDeliveries(first.db, seller.userId, [endpointId], "sale.completed", `{"n":${i}}`, now)),
    );
  }

  const [byFirst, bySecond] = await Promise.all([first.app.jobs.runDue(), second.app.jobs.runDue()]);
  // Both took part (the jobs were shared out between them), and together they ran each job once.
  expect(byFirst).toBeGreaterThan(0);
  expect(bySecond).toBeGreaterThan(0);

  const sentIds = receiver.received.map((webhook) => webhook.headers["webhook-id"]);
  expect(sentIds).toHaveLength(40);
  expect(new Set(sentIds)).toEqual(new Set(ids));
  const rows = await first.db.selectFrom("webhook_deliveries").select(["status", "attempts"]).execute();
  expect(rows.every((row) => row.status === "succeeded" && row.attempts === 1)).toBe(true);
});
