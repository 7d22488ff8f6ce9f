import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORE_FALLBACK_NAME } from "../../src/contracts/products";
import { createProduct, readySeller, subscribedSeller } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

// Stripe's Checkout names the merchant by the connected account's business name: the store's name,
// never the seller's sign-in email.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(async () => {
  await t.close();
});

/** Saves the store's name, and waits for the job that gives it to the Stripe account. */
async function saveStoreName(cookie: string, storeName: string | null) {
  const saved = await t.request({ method: "PUT", url: "/api/store-settings", cookie, body: { storeName } });
  await t.app.jobs.runDue();
  return saved;
}

/** The merchant named on the Checkout page a buyer of the product lands on. */
async function merchantOnCheckout(productId: string): Promise<string> {
  const checkout = await t.request({ method: "POST", url: "/api/checkout", body: { productId } });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const page = await (await fetch(checkout.json().url)).text();
  const merchant = page.match(/<h1 class="merchant">.*?<\/span>(.*?)<\/h1>/s)?.[1];
  expect(merchant, page).toBeDefined();
  return merchant!;
}

async function accountName(accountId: string) {
  return (await t.stripe.accounts.retrieve(accountId)).business_profile?.name;
}

describe("the merchant buyers see on Checkout", () => {
  it("is the store's name, follows a rename, and is never the seller's email", async () => {
    const seller = await readySeller(t);
    const product = await createProduct(t, seller.cookie, {}, { cover: false });
    // Onboarded before naming the store: the name the store's pages show too.
    expect(await accountName(seller.account)).toBe(STORE_FALLBACK_NAME);
    expect(await merchantOnCheckout(product.id)).toBe(STORE_FALLBACK_NAME);

    expect((await saveStoreName(seller.cookie, "Ada's Prints")).statusCode).toBe(200);
    expect(await accountName(seller.account)).toBe("Ada's Prints");
    expect(await merchantOnCheckout(product.id)).toBe("Ada&#39;s Prints");

    // Saving other texts alone leaves the name (and Stripe) alone; clearing it goes back to the fallback.
    await t.request({
      method: "PUT",
      url: "/api/store-settings",
      cookie: seller.cookie,
      body: { storeTagline: "Prints" },
    });
    await t.app.jobs.runDue();
    expect(await accountName(seller.account)).toBe("Ada's Prints");
    await saveStoreName(seller.cookie, null);
    expect(await accountName(seller.account)).toBe(STORE_FALLBACK_NAME);
    expect(await merchantOnCheckout(product.id)).not.toContain(seller.email);
  });

  it("a store named before payouts are set up gives its name to the new Stripe account", async () => {
    const seller = await subscribedSeller(t);
    expect((await saveStoreName(seller.cookie, "Night Owl Audio")).statusCode).toBe(200);
    const onboarding = await t.request({
      method: "POST",
      url: "/api/payouts/onboarding",
      cookie: seller.cookie,
    });
    expect(onboarding.statusCode, onboarding.body).toBe(200);
    const profile = await t.db
      .selectFrom("profiles")
      .select("stripe_connect_account_id")
      .where("id", "=", seller.userId)
      .executeTakeFirstOrThrow();
    const account = await t.stripe.accounts.retrieve(profile.stripe_connect_account_id!);
    expect(account.business_profile?.name).toBe("Night Owl Audio");
    expect(account.email).toBe(seller.email);
  });
});
