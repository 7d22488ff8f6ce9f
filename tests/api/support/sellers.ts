import { expect } from "vitest";
import { minimalPdf, pngImage } from "../../../src/server/features/uploads/test-fixtures";
import { control } from "./emulator-control";
import { signUp, type TestApp } from "./test-app";
import { eventually } from "./wait";

/** A seller who has paid the plan but not set up payouts (the test app must listen). */
export async function subscribedSeller(t: TestApp) {
  const seller = await signUp(t);
  const checkout = await t.request({ method: "POST", url: "/api/billing/checkout", cookie: seller.cookie });
  await control(t.emulator).payCheckout(new URL(checkout.json().url).pathname.split("/").pop()!);
  await eventually(async () => {
    const status = (
      await t.request({ method: "GET", url: "/api/seller/status", cookie: seller.cookie })
    ).json();
    expect(status.canUseDashboard).toBe(true);
  });
  return seller;
}

/** A seller on the plan with payouts set up; `account` is their connected Stripe account. */
export async function readySeller(t: TestApp) {
  const seller = await subscribedSeller(t);
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
  await control(t.emulator).completeOnboarding(profile.stripe_connect_account_id!);
  await eventually(async () => {
    const status = (
      await t.request({ method: "GET", url: "/api/seller/status", cookie: seller.cookie })
    ).json();
    expect(status).toMatchObject({ canUseDashboard: true, payouts: { onboardingComplete: true } });
  });
  return { ...seller, account: profile.stripe_connect_account_id! };
}

type Purpose = "product-file" | "product-cover" | "profile-picture";

/** What the browser does: ask for an upload link, PUT the bytes, complete. Returns the upload id. */
export async function upload(t: TestApp, cookie: string, purpose: Purpose, fileName: string, bytes: Buffer) {
  const intent = await t.request({
    method: "POST",
    url: "/api/uploads",
    cookie,
    body: { purpose, fileName, sizeBytes: bytes.length, contentType: "" },
  });
  expect(intent.statusCode, intent.body).toBe(201);
  const { uploadId, url, headers } = intent.json() as {
    uploadId: string;
    url: string;
    headers: Record<string, string>;
  };
  const put = await t.app.server.inject({ method: "PUT", url, headers, payload: bytes });
  expect(put.statusCode, put.body).toBe(200);
  const completed = await t.request({ method: "POST", url: `/api/uploads/${uploadId}/complete`, cookie });
  expect(completed.statusCode, completed.body).toBe(200);
  return uploadId;
}

/** A live product with a real PDF and, unless `cover` is false, a PNG cover. */
export async function createProduct(
  t: TestApp,
  cookie: string,
  fields: Record<string, unknown> = {},
  options: { cover?: boolean } = {},
) {
  const fileUploadId = await upload(t, cookie, "product-file", "guide.pdf", minimalPdf());
  const coverUploadId =
    options.cover === false
      ? undefined
      : await upload(t, cookie, "product-cover", "cover.png", await pngImage());
  const response = await t.request({
    method: "POST",
    url: "/api/products",
    cookie,
    body: {
      title: "The Guide",
      description: "A guide",
      price: "19.99",
      inventoryType: "unlimited",
      fileUploadId,
      coverUploadId,
      ...fields,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; coverImageUrl: string | null };
}

/** Units of a limited product left for sale, as stored. */
export async function quantityOf(t: TestApp, productId: string) {
  const product = await t.db
    .selectFrom("products")
    .select("quantity_available")
    .where("id", "=", productId)
    .executeTakeFirstOrThrow();
  return product.quantity_available;
}

/**
 * A buyer pays for the product with 4242 (Buy Now, then the emulator pays; its webhook fulfils the
 * order, so the test app must listen). Answers the order's id once the order exists.
 */
export async function buyProduct(
  t: TestApp,
  productId: string,
  email: string,
  /** More of Buy Now's fields, e.g. a discount `code`. */
  extra: Record<string, unknown> = {},
): Promise<string> {
  const checkout = await t.request({ method: "POST", url: "/api/checkout", body: { productId, ...extra } });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const sessionId = new URL(checkout.json().url).pathname.split("/").pop()!;
  await control(t.emulator).payCheckout(sessionId, "4242424242424242", email);
  let orderId = "";
  await eventually(async () => {
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("stripe_session_id", "=", sessionId)
      .executeTakeFirst();
    expect(order).toBeDefined();
    orderId = order!.id;
  });
  return orderId;
}

/** A product's files as stored, in order (product_files). */
export function productFilesOf(t: TestApp, productId: string) {
  return t.db
    .selectFrom("product_files")
    .select(["id", "upload_id", "display_name", "position"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .execute();
}

/**
 * A live product with one real PDF per name (uploaded as the browser does), no cover. `fields` are the
 * create form's. Returns the product and its files' ids in order.
 */
export async function createProductWithFiles(
  t: TestApp,
  cookie: string,
  names: string[],
  fields: Record<string, unknown> = {},
) {
  const files = [];
  for (const [index, name] of names.entries()) {
    files.push({ uploadId: await upload(t, cookie, "product-file", name, minimalPdf(200 + index)) });
  }
  const response = await t.request({
    method: "POST",
    url: "/api/products",
    cookie,
    body: { title: "The Pack", price: "9.00", inventoryType: "unlimited", files, ...fields },
  });
  expect(response.statusCode, response.body).toBe(201);
  const product = response.json() as { id: string; fileCount: number };
  return { product, files: await productFilesOf(t, product.id) };
}

/** Where a seller is set up in Stripe Tax: the head office, and the registrations they collect under. */
export interface StripeTaxSetup {
  headOffice: { country: string; state?: string };
  registrations: Array<{ country: string; type: string; state?: string }>;
}

/**
 * A ready seller's store starts collecting tax: Stripe Tax set up on their connected account (the
 * settings become active, which the app hears by webhook, so the test app must listen), then the store's
 * tax settings saved with collection on, prices exclusive of tax, and any other fields of `settings`.
 */
export async function collectTax(
  t: TestApp,
  seller: { userId: string; cookie: string; account: string },
  stripeTax: StripeTaxSetup,
  settings: Record<string, unknown> = {},
) {
  const emulator = control(t.emulator);
  await emulator.setTaxHeadOffice(seller.account, stripeTax.headOffice);
  for (const registration of stripeTax.registrations) {
    await emulator.addTaxRegistration(seller.account, registration);
  }
  await eventually(async () => {
    const row = await t.db
      .selectFrom("store_tax_settings")
      .select("stripe_tax_status")
      .where("seller_id", "=", seller.userId)
      .executeTakeFirst();
    expect(row?.stripe_tax_status).toBe("active");
  });
  const saved = await t.request({
    method: "PUT",
    url: "/api/store-tax",
    cookie: seller.cookie,
    body: { collectTax: true, taxBehavior: "exclusive", ...settings },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}
