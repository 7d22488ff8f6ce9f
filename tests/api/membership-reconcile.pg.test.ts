import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileAllJob } from "../../src/server/features/memberships/reconcile-memberships";
import { minimalPdf } from "../../src/server/features/uploads/test-fixtures";
import { enqueueJob } from "../../src/server/jobs/job-queue";
import { control } from "./support/emulator-control";
import { readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp, WEBHOOK_SECRETS } from "./support/test-app";

// Two instances of one deployment on one PostgreSQL database, and Stripe's Connect webhooks lost (an
// outage past their retries): the reconciliation jobs alone must bring in every membership and every
// renewal, once each, and grant nothing that was not paid.
let one: TestApp;
let two: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  one = await createTestApp({ listen: true, jobsInBackground: false });
  two = await createTestApp({ sharing: one, jobsInBackground: false });
  seller = await readySeller(one);
});
afterAll(async () => {
  await two.close();
  await one.close();
});

const sessionIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;
const membershipOf = (email: string) =>
  one.db.selectFrom("memberships").selectAll().where("customer_email", "=", email).executeTakeFirst();

/** Both instances run the reconciliation at once, as their schedules would. */
async function reconcileOnBoth() {
  await enqueueJob(one.db, reconcileAllJob, {});
  await Promise.all([one.app.jobs.runDue(), two.app.jobs.runDue()]);
  // The per-account jobs the first round queued.
  await Promise.all([one.app.jobs.runDue(), two.app.jobs.runDue()]);
}

describe("membership reconciliation without webhooks, on two instances", () => {
  it("brings in each membership and each paid period exactly once, and an end", async () => {
    const files = [{ uploadId: await upload(one, seller.cookie, "product-file", "a.pdf", minimalPdf(701)) }];
    const created = await one.request({
      method: "POST",
      url: "/api/products",
      cookie: seller.cookie,
      body: { kind: "membership", title: "Quiet", files, tiers: [{ name: "Fan", monthlyPrice: "5" }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json();
    // Connect webhooks go nowhere from now on.
    one.emulator.configureWebhooks({
      platform: { url: `${one.url}/api/webhooks/stripe`, secret: WEBHOOK_SECRETS.platform },
      connect: { url: "http://127.0.0.1:9/lost", secret: WEBHOOK_SECRETS.connect },
    });

    const emails = ["q1@reconcile.test", "q2@reconcile.test", "q3@reconcile.test"];
    for (const email of emails) {
      const response = await one.request({
        method: "POST",
        url: "/api/checkout/subscribe",
        body: { productId: product.id, tierId: product.tiers[0].id },
      });
      expect(response.statusCode, response.body).toBe(200);
      await control(one.emulator).payCheckout(sessionIdOf(response.json().url), "4242424242424242", email);
    }
    expect(await membershipOf(emails[0]!)).toBeUndefined();

    await reconcileOnBoth();
    const members = await Promise.all(emails.map(async (email) => (await membershipOf(email))!));
    for (const member of members) expect(member).toMatchObject({ status: "active", amount_cents: 500 });
    const ordersOf = (id: string) =>
      one.db.selectFrom("orders").select(["id", "amount_cents"]).where("membership_id", "=", id).execute();
    for (const member of members) expect(await ordersOf(member.id)).toHaveLength(1);

    // Renewals and an end, with no webhook: the next reconciliation finds them.
    await control(one.emulator).renew(members[0]!.stripe_subscription_id, "paid");
    await control(one.emulator).renew(members[1]!.stripe_subscription_id, "paid");
    await control(one.emulator).renew(members[1]!.stripe_subscription_id, "failed");
    await one.stripe.subscriptions.cancel(
      members[2]!.stripe_subscription_id,
      {},
      { stripeAccount: seller.account },
    );
    await reconcileOnBoth();
    await reconcileOnBoth();

    expect(await ordersOf(members[0]!.id)).toHaveLength(2);
    expect(await ordersOf(members[1]!.id)).toHaveLength(2);
    expect((await membershipOf(emails[1]!))?.status).toBe("past_due");
    expect((await membershipOf(emails[2]!))?.status).toBe("canceled");
    const welcomes = await one.db
      .selectFrom("outbox_emails")
      .select("to_address")
      .where("subject", "=", "Welcome to Quiet")
      .execute();
    expect(welcomes.map((row) => row.to_address).sort()).toEqual([...emails].sort());
  });
});
