import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_FALLBACK_NAME } from "../../src/contracts/products";
import { renameAccountJobHandler } from "../../src/server/features/payouts/connected-account-name";
import { JobQueue } from "../../src/server/jobs/job-queue";
import { readySeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

// The store's name reaches the seller's Stripe account by a job queued with the save: a Stripe that is
// down only delays it (the job is tried again), never loses it. Jobs run only when this file says.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true, jobsInBackground: false });
});
afterAll(() => t.close());

/** A Stripe client whose every request is refused: nothing listens on its port any more. */
async function unreachableStripe(): Promise<Stripe> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return new Stripe("sk_test_down", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 });
}

/** An instance's queue that runs only the rename job, with this Stripe, on the app's clock. */
function renameQueue(stripe: Stripe): JobQueue {
  const queue = new JobQueue({ db: t.db, now: t.clock.now, log: { warn() {}, error() {} } });
  queue.register(renameAccountJobHandler({ db: t.db, stripe }));
  return queue;
}

const accountName = async (accountId: string) =>
  (await t.stripe.accounts.retrieve(accountId)).business_profile?.name;

describe("the store's name on Stripe", () => {
  it("is retried while Stripe is down, and arrives once it is back", async () => {
    const seller = await readySeller(t);
    const saved = await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: seller.cookie,
      body: { storeName: "Ada's Prints" },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    // Stripe refuses: the name is saved, Stripe still has the old one, and the job waits its backoff.
    expect(await renameQueue(await unreachableStripe()).runDue()).toBe(1);
    expect(await accountName(seller.account)).toBe(STORE_FALLBACK_NAME);
    const waiting = await t.db
      .selectFrom("jobs")
      .selectAll()
      .where("unique_key", "=", `rename-account:${seller.userId}`)
      .executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
    expect(waiting.last_error).toBeTruthy();

    // Stripe is back: not before the retry is due, then the name arrives and the job is done.
    const working = renameQueue(t.stripe);
    expect(await working.runDue()).toBe(0);
    t.clock.advance(30_000);
    expect(await working.runDue()).toBe(1);
    expect(await accountName(seller.account)).toBe("Ada's Prints");
    const left = await t.db
      .selectFrom("jobs")
      .select("id")
      .where("unique_key", "=", `rename-account:${seller.userId}`)
      .execute();
    expect(left).toEqual([]);
  });
});
