/**
 * The store the buyer-page benches look at (`public-pages.ts`, `lighthouse.ts`): one seller on the plan
 * with payouts set up, and products with real covers, made through the app's own upload and product
 * APIs so every cover has its responsive sizes on disk, as in production.
 */
import sharp from "sharp";
import { minimalPdf } from "../src/server/features/uploads/test-fixtures";
import { signUp, type TestApp } from "../tests/api/support/test-app";
import { freshSession } from "./session";

const DESCRIPTION =
  "Thirty short lessons, from the first wash to a finished landscape: materials, colour mixing, " +
  "wet-on-wet, glazing and composition, each with a worksheet and a time-lapse of the painting.";

/**
 * A photo-like 2400x1260 JPEG (blurred noise): it compresses like a photograph, so the cover sizes
 * weigh what a real cover's do, unlike a flat colour.
 */
async function photoLikeCover(): Promise<Buffer> {
  return sharp({
    create: {
      width: 2400,
      height: 1260,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .blur(3)
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** What a browser does for one file: ask for an upload link, PUT the bytes, complete. */
async function upload(t: TestApp, cookie: string, purpose: string, fileName: string, bytes: Buffer) {
  const intent = await t.request({
    method: "POST",
    url: "/api/uploads",
    cookie,
    body: { purpose, fileName, sizeBytes: bytes.length, contentType: "" },
  });
  const { uploadId, url, headers } = expectStatus(intent, 201) as {
    uploadId: string;
    url: string;
    headers: Record<string, string>;
  };
  expectStatus(await t.app.server.inject({ method: "PUT", url, headers, payload: bytes }), 200);
  expectStatus(await t.request({ method: "POST", url: `/api/uploads/${uploadId}/complete`, cookie }), 200);
  return uploadId;
}

function expectStatus(response: { statusCode: number; body: string }, status: number): unknown {
  if (response.statusCode !== status) {
    throw new Error(`seeding: expected ${status}, got ${response.statusCode} ${response.body}`);
  }
  return JSON.parse(response.body);
}

/**
 * A seller on an active plan with payouts complete (set in the database: the benches do not go through
 * Checkout), a named store, and `productCount` products with covers. Answers the seller's id and the
 * products' ids, newest first.
 */
export async function seedPublicStore(
  t: TestApp,
  productCount: number,
  options: { memberships?: number } = {},
) {
  const seller = await signUp(t);
  await t.db
    .updateTable("profiles")
    .set({ stripe_connect_onboarding_complete: true, stripe_connect_account_id: "acct_bench" })
    .where("id", "=", seller.userId)
    .execute();
  await t.db
    .insertInto("subscriptions")
    .values({
      user_id: seller.userId,
      stripe_subscription_id: "sub_bench",
      stripe_customer_id: "cus_bench",
      status: "active",
    })
    .execute();
  // A fresh sign-in (its cached session copy now carries the plan), again whenever it gets old.
  const session = freshSession(t, seller);
  expectStatus(
    await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: await session(),
      body: { storeName: "Ada's Watercolours", storeTagline: "Paint with light, one lesson at a time" },
    }),
    200,
  );
  const cover = await photoLikeCover();
  const productIds: string[] = [];
  for (let index = 1; index <= productCount; index++) {
    const cookie = await session();
    const fileUploadId = await upload(t, cookie, "product-file", "lessons.pdf", minimalPdf());
    const coverUploadId = await upload(t, cookie, "product-cover", "cover.jpg", cover);
    const created = await t.request({
      method: "POST",
      url: "/api/products",
      cookie,
      // The first `memberships` products are memberships of three tiers (one with a yearly price).
      body:
        index <= (options.memberships ?? 0)
          ? {
              kind: "membership",
              title: `Watercolour Club ${index}`,
              description: DESCRIPTION,
              fileUploadId,
              coverUploadId,
              tiers: [
                { name: "Supporter", description: "A lesson a month.", monthlyPrice: "5", trialDays: 7 },
                {
                  name: "Painter",
                  description: "Lessons and brushes.",
                  monthlyPrice: "12.50",
                  yearlyPrice: "120",
                },
                { name: "Studio", description: "Everything, and live sessions.", monthlyPrice: "25" },
              ],
            }
          : {
              title: `Watercolour Basics, part ${index}`,
              description: DESCRIPTION,
              price: "19.99",
              inventoryType: "unlimited",
              fileUploadId,
              coverUploadId,
            },
    });
    productIds.unshift((expectStatus(created, 201) as { id: string }).id);
  }
  return { sellerId: seller.userId, productIds };
}
