import { readFile } from "node:fs/promises";
import type { Browser, Download, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { openEmail } from "./support/memberships";
import { fromPage, publishProduct, readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

/**
 * Issue 28's round trip, "no lock-in", in a browser: a store on instance A (a product with its file and
 * license keys, a discount code, an order paid with it, its customer and key) is exported from Settings,
 * its archive imported on instance B by a fresh seller (the sale, customer and code are there after),
 * and A's buyer, emailed by B, downloads the file from B's library and verifies the key on B. Two servers, each with its own DATA_DIR, embedded database and Stripe emulator; one browser.
 */

let a: E2EServer;
let b: E2EServer;
let browser: Browser;
beforeAll(async () => {
  [a, b, browser] = await Promise.all([startE2EServer(), startE2EServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await a?.close();
  await b?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const TITLE = "Field Recording Kit";

/** A small valid PDF whose bytes are this journey's own. */
const ORIGINAL = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n% store-move round trip\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);

async function newPage(server: E2EServer, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl, acceptDownloads: true });
  context.setDefaultTimeout(20_000);
  return context.newPage();
}

/** What the creator's software does: JSON, no cookie. */
async function verify(server: E2EServer, productId: string, key: string) {
  const response = await fetch(`${server.baseUrl}/api/v1/licenses/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ product_id: productId, license_key: key }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The numbers of a StatGrid (the dry run's or the result's), by label. */
async function stats(page: Page): Promise<Record<string, number>> {
  return page
    .locator("dl")
    .evaluateAll((lists) =>
      Object.fromEntries(
        lists.flatMap((list) =>
          [...list.querySelectorAll(":scope > div")].map((pair) => [
            pair.querySelector("dt")?.textContent ?? "",
            Number((pair.querySelector("dd")?.textContent ?? "").replace(/,/g, "")),
          ]),
        ),
      ),
    );
}

describe("moving a Flatfee store to another instance (issue 28)", () => {
  it("A's store exported from Settings, imported on B from the page; A's buyer downloads and verifies on B", async () => {
    // Instance A: a product with its file and license keys, a discount code.
    const sellerA = await newPage(a);
    await readySeller(sellerA, a);
    const productId = await publishProduct(sellerA, {
      title: TITLE,
      price: "20.00",
      file: ORIGINAL,
      issueLicenseKeys: true,
    });
    await fromPage(sellerA, "POST", "/api/discount-codes", {
      code: "MOVED10",
      kind: "percent",
      value: 10,
      appliesTo: "chosen",
      productIds: [productId],
    });

    // A buyer follows the offer link with the code and pays on the emulator's hosted Checkout.
    const buyerEmail = `mover-${Date.now()}@example.com`;
    const buyerOnA = await newPage(a, PHONE_VIEWPORT);
    await buyerOnA.goto(`/product/${productId}?code=MOVED10`);
    await buyerOnA.getByRole("heading", { name: TITLE }).waitFor();
    await buyerOnA.getByRole("button", { name: "Buy Now" }).click();
    await buyerOnA.getByLabel("Card number").waitFor();
    await buyerOnA.getByLabel("Email").fill(buyerEmail);
    await buyerOnA.getByLabel("Card number").fill("4242 4242 4242 4242");
    await buyerOnA.getByLabel("Expiration date").fill("12 / 34");
    await buyerOnA.getByLabel("CVC").fill("123");
    await buyerOnA.getByRole("checkbox", { name: /right of withdrawal/ }).check();
    await buyerOnA.getByRole("button", { name: "Pay $18.00" }).click();
    await buyerOnA.waitForURL((url) => url.pathname === "/success" && url.searchParams.has("session_id"));
    await buyerOnA.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
    const key = ((await buyerOnA.locator("[data-license-key]").textContent()) ?? "").trim();
    expect(key).not.toBe("");
    const onA = await verify(a, productId, key);
    expect(onA.status, JSON.stringify(onA.body)).toBe(200);
    expect(onA.body).toMatchObject({ success: true, uses: 1 });

    // A: Settings → Export my store; the card polls until the archive is ready; the browser downloads it.
    await sellerA.goto("/settings");
    await sellerA.getByRole("button", { name: "Export my store" }).click();
    const downloadLink = sellerA.getByRole("link", { name: "Download archive" });
    await downloadLink.waitFor({ timeout: 30_000 });
    const [download] = (await Promise.all([sellerA.waitForEvent("download"), downloadLink.click()])) as [
      Download,
      unknown,
    ];
    const archiveName = download.suggestedFilename();
    expect(archiveName).toMatch(/\.zip$/);
    const archive = await readFile(await download.path());

    // Instance B: a fresh seller moves the store here from the archive.
    const sellerB = await newPage(b);
    await readySeller(sellerB, b);
    await sellerB.goto("/settings");
    await sellerB.getByRole("link", { name: "Import a store" }).click();
    await sellerB.getByRole("heading", { name: "Move your store here" }).waitFor();
    await sellerB
      .getByRole("list", { name: "Platforms" })
      .getByRole("listitem")
      .filter({ hasText: "Another Flatfee store" })
      .getByText("The archive from Settings → Export my store.")
      .waitFor();
    await sellerB.getByRole("button", { name: "Import from Flatfee" }).click();
    await sellerB.getByRole("heading", { name: "From Flatfee" }).waitFor();
    await sellerB.getByRole("heading", { name: "Add your Flatfee store archive" }).waitFor();
    await sellerB.getByLabel(/Choose a file/).setInputFiles({
      name: archiveName,
      mimeType: "application/zip",
      buffer: archive,
    });
    const exportFiles = sellerB.getByRole("list", { name: "Export files" });
    await exportFiles.getByRole("listitem").filter({ hasText: archiveName }).waitFor();
    await exportFiles.getByText("Flatfee store archive").waitFor();

    // The dry run: the product with its file, the order, the key and the buyer.
    await sellerB.getByRole("button", { name: "Check the import" }).click();
    await sellerB.getByRole("heading", { name: "What the import will do" }).waitFor({ timeout: 30_000 });
    expect(await stats(sellerB)).toMatchObject({
      "New products": 1,
      "New past orders": 1,
      "Orders already imported": 0,
      "License keys": 1,
      "Buyers who would get the email": 1,
    });
    const productRow = sellerB.locator("tbody").filter({ has: sellerB.getByText(TITLE, { exact: true }) });
    await productRow.getByText("Will be created").waitFor();
    for (const viewport of [DESKTOP, PHONE_VIEWPORT]) {
      await sellerB.setViewportSize(viewport);
      await expectNoSidewaysOverflow(sellerB, `Flatfee dry run ${viewport.width}px`);
      await screenshot(sellerB, `import-flatfee-dry-run-${viewport.width}`);
    }
    await sellerB.setViewportSize(DESKTOP);

    await sellerB.getByLabel("Email my buyers that their purchases moved").check();
    await sellerB.getByText("1 buyer would get one email").waitFor();
    await sellerB.getByRole("button", { name: "Run the import" }).click();
    await sellerB.getByRole("heading", { name: "Your Flatfee store is here" }).waitFor({ timeout: 30_000 });
    expect(await stats(sellerB)).toMatchObject({
      "Products created": 1,
      "Past orders": 1,
      "License keys": 1,
    });

    // B's dashboard: the sale with its code and key, the customer, the code.
    await sellerB.getByRole("link", { name: "See your products and sales" }).click();
    const sale = sellerB.getByRole("region", { name: "Customer Sales" }).getByRole("row").filter({
      hasText: buyerEmail,
    });
    await sale.getByText("Imported from Flatfee").waitFor();
    await sale.getByText("MOVED10").waitFor();
    await sale.getByText(key).waitFor();
    await sellerB.goto("/dashboard/customers");
    await sellerB.getByRole("region", { name: "Customer list" }).getByText(buyerEmail).waitFor();
    await sellerB.goto("/dashboard/discounts");
    await sellerB
      .getByRole("list", { name: "Your discount codes" })
      .getByRole("heading", { name: "MOVED10" })
      .waitFor();

    // The buyer, on B: the email, the library, the file, the key.
    const buyerOnB = await newPage(b, PHONE_VIEWPORT);
    await openEmail(buyerOnB, "Your purchases from .+ have moved", buyerEmail);
    await buyerOnB.getByRole("link", { name: "All your purchases (your library)" }).click();
    await buyerOnB.waitForURL((url) => url.pathname === "/library" && url.searchParams.has("token"));
    const card = buyerOnB.getByRole("article", { name: TITLE });
    await card.getByText(key).waitFor();
    const inTab = new Promise<Download>((resolve) =>
      buyerOnB.context().once("page", (tab) => void tab.waitForEvent("download").then(resolve)),
    );
    await card.getByRole("button", { name: /^Download/ }).click();
    const saved = await inTab;
    expect((await readFile(await saved.path())).equals(ORIGINAL)).toBe(true);

    const onB = await verify(b, productId, key);
    expect(onB.status, JSON.stringify(onB.body)).toBe(200);
    expect(onB.body).toMatchObject({ success: true, uses: 2 });
  });
});
