import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, Download, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, expectNoSidewaysOverflow } from "./support/accessibility";
import { launchBrowser, PHONE_VIEWPORT, screenshot } from "./support/browser";
import { openEmail } from "./support/memberships";
import { readySeller } from "./support/seller";
import { type E2EServer, startE2EServer } from "./support/server";

/**
 * Issue 28's store import, through the page (Settings → Move your store here), from each platform's
 * sample exports (tests/fixtures/import-formats): the files dropped, the dry run read, the products'
 * files attached, the run and its result; for Gumroad, what the seller and a buyer see afterwards.
 * One server and one browser; a fresh seller per journey.
 */

let server: E2EServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const FIXTURES = path.resolve(__dirname, "../fixtures/import-formats");
const sample = (platform: string, name: string) => path.join(FIXTURES, platform, name);

/** A small valid PDF whose bytes say which file it is. */
const pdf = (label: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% ${label}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`,
  );
/** The first bytes of a PNG: an image a creator renamed to .csv. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d494844520000000100000001080600000000", "hex");

async function newPage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: server.baseUrl, acceptDownloads: true });
  context.setDefaultTimeout(20_000);
  return context.newPage();
}

/** A ready seller goes Settings → Move your store here, and picks the platform. */
async function startImport(platform: string): Promise<Page> {
  const seller = await newPage();
  await readySeller(seller, server);
  await seller.goto("/settings");
  await seller.getByRole("link", { name: "Import a store" }).click();
  await seller.getByRole("heading", { name: "Move your store here" }).waitFor();
  await seller.getByRole("button", { name: `Import from ${platform}` }).click();
  await seller.getByRole("heading", { name: `From ${platform}` }).waitFor();
  await seller.getByRole("heading", { name: `Add your ${platform} export files` }).waitFor();
  return seller;
}

/** The drop zone's input (its label: "Choose files or drag them here"). */
const dropZone = (page: Page) => page.getByLabel(/Choose files/);

/** Drops the files, and waits for each to be in the import's list with what it was recognised as. */
async function addExports(page: Page, platformDir: string, names: string[]) {
  await dropZone(page).setInputFiles(names.map((name) => sample(platformDir, name)));
  const list = page.getByRole("list", { name: "Export files" });
  for (const name of names) await list.getByRole("listitem").filter({ hasText: name }).waitFor();
  await expect.poll(() => list.getByRole("listitem").count()).toBe(names.length);
}

/** Runs the dry run from the page and waits for its report. */
async function checkImport(page: Page) {
  await page.getByRole("button", { name: "Check the import" }).click();
  await page.getByRole("heading", { name: "What the import will do" }).waitFor({ timeout: 30_000 });
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

/** Uploads a small PDF through the product's "Attach its files" and waits until it is listed. */
async function attachFile(page: Page, title: string, fileName: string) {
  await page.getByLabel(`Attach its files to ${title}`).setInputFiles({
    name: fileName,
    mimeType: "application/pdf",
    buffer: pdf(fileName),
  });
  await page
    .getByRole("list", { name: `Files of ${title}` })
    .getByText(fileName, { exact: true })
    .waitFor();
}

/** A ZIP made as a creator's tool makes it (yazl): files by path, folders implied. */
async function zipOf(files: Record<string, Buffer>): Promise<Buffer> {
  const yazl = (await import("yazl")).default;
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(files)) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A product's files as one ZIP, through its row's "Upload a ZIP"; waits until each file is listed. */
async function attachZip(page: Page, title: string, zipName: string, files: Record<string, Buffer>) {
  await page.getByLabel(`Upload a ZIP of ${title}'s files`).setInputFiles({
    name: zipName,
    mimeType: "application/zip",
    buffer: await zipOf(files),
  });
  const listed = page.getByRole("list", { name: `Files of ${title}` });
  for (const name of Object.keys(files)) {
    await listed.getByText(name.split("/").pop()!, { exact: true }).waitFor();
  }
}

/** The dry run's row (a table body on wide screens) of one product. */
const productRow = (page: Page, title: string) =>
  page.locator("tbody").filter({ has: page.getByText(title, { exact: true }) });

/** Runs the import from the page and waits for its result. */
async function runImport(page: Page, platform: string) {
  await page.getByRole("button", { name: "Run the import" }).click();
  await page.getByRole("heading", { name: `Your ${platform} store is here` }).waitFor({ timeout: 30_000 });
}

/** Screenshots at 1280 and 375 px, nothing wider than the screen at either. */
async function bothWidths(page: Page, name: string) {
  for (const viewport of [DESKTOP, PHONE_VIEWPORT]) {
    await page.setViewportSize(viewport);
    await expectNoSidewaysOverflow(page, `${name} ${viewport.width}px`);
    await screenshot(page, `import-${name}-${viewport.width}`);
  }
  await page.setViewportSize(DESKTOP);
}

describe("moving a store here (issue 28)", () => {
  it("Gumroad: sales and audience CSVs, a PNG refused, the dry run, files attached, buyers emailed; the sales, customers and a buyer's library after", async () => {
    const seller = await startImport("Gumroad");

    await addExports(seller, "gumroad", ["sales.csv", "subscribers.csv"]);
    const exportFiles = seller.getByRole("list", { name: "Export files" });
    await exportFiles.getByText("Gumroad sales CSV").waitFor();
    await exportFiles.getByText("Gumroad audience CSV").waitFor();
    // An image renamed .csv: refused with the server's words, and not added.
    await dropZone(seller).setInputFiles({ name: "cover.csv", mimeType: "text/csv", buffer: PNG });
    const refused = seller.getByRole("list", { name: "Files being added" });
    await refused
      .getByText(
        '"cover.csv" is not a text export: it looks like an image, a spreadsheet or another binary file. Upload the CSV or JSON file exactly as the platform gave it.',
      )
      .waitFor();
    expect(await exportFiles.getByRole("listitem").count()).toBe(2);
    await seller.getByRole("button", { name: "Dismiss cover.csv" }).click();
    await refused.waitFor({ state: "detached" });

    // The dry run: what would be created, the notes and the column nobody knows.
    await checkImport(seller);
    expect(await stats(seller)).toMatchObject({
      "New products": 3,
      "New past orders": 6,
      "Orders already imported": 0,
      "Refunded orders": 1,
      "License keys": 3,
      "People in the files": 9,
      Unsubscribed: 1,
      "Buyers who would get the email": 5,
    });
    const filesRead = seller.getByRole("list", { name: "Files read" });
    await filesRead.getByText("Skipped Gumroad's Totals row (line 9)").waitFor();
    await filesRead.getByText(/^Skipped membership charges and free trials/).waitFor();
    await filesRead.getByText("Columns we don't know and left out: Company").waitFor();
    for (const title of ["Pixel Icons Pack", "Lightroom Presets"]) {
      await productRow(seller, title).getByText("Add its files").waitFor();
    }
    await productRow(seller, "Pixel Icons Pack").getByText("License keys").waitFor();
    await seller.getByText("3 products have no files yet: they and their orders are left out.").waitFor();

    // Each product's file, through the page's upload.
    await attachFile(seller, "Pixel Icons Pack", "pixel-icons.pdf");
    await attachFile(seller, "Lightroom Presets", "presets.pdf");
    for (const title of ["Pixel Icons Pack", "Lightroom Presets"]) {
      await productRow(seller, title).getByText("Will be created").waitFor();
    }
    await seller.getByText("1 product has no files yet: it and its orders are left out.").waitFor();
    await expectAccessible(seller, "import dry run 1280px");
    await bothWidths(seller, "gumroad-dry-run");
    await seller.setViewportSize(PHONE_VIEWPORT);
    await expectAccessible(seller, "import dry run 375px");
    await seller.setViewportSize(DESKTOP);

    // The buyers' email, previewed, then chosen.
    await seller.getByRole("button", { name: "Preview email" }).click();
    const preview = seller.getByRole("dialog", { name: "The email your buyers would get" });
    await preview.getByText(/^Your purchases from .+ have moved$/).waitFor();
    await seller.keyboard.press("Escape");
    await preview.waitFor({ state: "detached" });
    await seller.getByLabel("Email my buyers that their purchases moved").check();
    await seller.getByText("5 buyers would get one email").waitFor();

    await runImport(seller, "Gumroad");
    expect(await stats(seller)).toMatchObject({
      "Products created": 2,
      "Past orders": 6,
      "License keys": 3,
      "Unsubscribes kept": 1,
      // Pro Membership, left without files.
      Skipped: 1,
    });
    await bothWidths(seller, "gumroad-result");

    // The sales: each marked as imported, the refunded one refunded, amounts in the buyer's currency.
    await seller.getByRole("link", { name: "See your products and sales" }).click();
    const sales = seller.getByRole("region", { name: "Customer Sales" });
    const sale = (email: string) => sales.getByRole("row").filter({ hasText: email });
    await sale("buyer1@example.com").getByTitle("Imported from Gumroad").waitFor();
    await sale("buyer1@example.com").getByText("1A2B3C4D-5E6F7A8B-9C0D1E2F-3A4B5C6D").waitFor();
    expect(await sales.getByTitle("Imported from Gumroad").count()).toBe(6);
    await sale("buyer3@example.com").getByText("Refunded").waitFor();
    await sale("buyer2@example.com").getByText("SPRING20").waitFor();
    await sale("buyer5@example.com").getByText("€25.60").waitFor();
    await sale("buyer6@example.com").getByText("¥1,500").waitFor();
    await screenshot(seller, "import-gumroad-sales-1280");

    // The customers: the six buyers; the followers who never bought, and the member whose charges were
    // skipped, are not customers (the member's opt-out is kept: no email reaches them, below).
    await seller.goto("/dashboard/customers");
    const customers = seller.getByRole("region", { name: "Customer list" });
    for (const n of [1, 2, 3, 4, 5, 6]) await customers.getByText(`buyer${n}@example.com`).waitFor();
    await customers.getByText("6 of 6 shown", { exact: false }).waitFor();
    expect(await customers.getByText("follower1@example.com").count()).toBe(0);

    // A buyer opens their library from the email, finds the key and downloads the file.
    const buyer = await newPage(PHONE_VIEWPORT);
    await openEmail(buyer, "Your purchases from .+ have moved", "buyer1@example.com");
    await buyer.getByRole("link", { name: "All your purchases (your library)" }).click();
    await buyer.waitForURL((url) => url.pathname === "/library" && url.searchParams.has("token"));
    const card = buyer.getByRole("article", { name: "Pixel Icons Pack" });
    await card.getByText("1A2B3C4D-5E6F7A8B-9C0D1E2F-3A4B5C6D").waitFor();
    await screenshot(buyer, "import-gumroad-library-375");
    const inTab = new Promise<Download>((resolve) =>
      buyer.context().once("page", (tab) => void tab.waitForEvent("download").then(resolve)),
    );
    await card.getByRole("button", { name: "Download pixel-icons.pdf" }).click();
    const saved = await inTab;
    expect((await readFile(await saved.path())).equals(pdf("pixel-icons.pdf"))).toBe(true);
    // The refunded buyer and the one who asked not to be contacted got no email.
    await buyer.goto("/dev/mailbox");
    for (const to of ["buyer3@example.com", "buyer7@example.com"]) {
      expect(await buyer.getByRole("link", { name: new RegExp(`have moved.*To ${to}`) }).count()).toBe(0);
    }
  });

  it.each([
    {
      platform: "Lemon Squeezy",
      dir: "lemonsqueezy",
      files: [
        "api-products.json",
        "api-orders.json",
        "api-license-keys.json",
        "api-subscriptions-include-variant.json",
        "subscribers-export.csv",
      ],
      counts: { "New past orders": 5, "Refunded orders": 1, "Subscriptions to re-subscribe": 3 },
      async dryRun(page: Page) {
        // Products do not state their currency; the ended memberships are not invited.
        await page
          .getByRole("list", { name: "Files read" })
          .getByText(/^Lemon Squeezy's products and plans do not say their currency/)
          .first()
          .waitFor();
        await page.getByText('Skipped "cancelled" subscriptions', { exact: false }).waitFor();
      },
      attach: ["Pixel Icons Pack", "Lightroom Presets", "Pro Membership"],
      result: { "Products created": 3, "Past orders": 5, "Members to re-subscribe": 3 },
      async after(page: Page) {
        const sales = page.getByRole("region", { name: "Customer Sales" });
        // Paid in euros with a €6.00 discount, and in pounds: kept in the buyer's currency.
        await sales.getByRole("row").filter({ hasText: "buyer2@example.com" }).getByText("−€6.00").waitFor();
        await sales.getByRole("row").filter({ hasText: "buyer4@example.com" }).getByText(/£/).waitFor();
        await sales
          .getByRole("row")
          .filter({ hasText: "buyer3@example.com" })
          .getByText("Refunded")
          .waitFor();
      },
    },
    {
      platform: "Payhip",
      dir: "payhip",
      files: ["webhook-events.json"],
      counts: { "New past orders": 4, "Refunded orders": 1, Unsubscribed: 2 },
      async dryRun(page: Page) {
        // Quotes, commas and Cyrillic in titles, priced in currencies the store does not sell in.
        await productRow(page, 'Lightroom Presets "Pro", 2025 edition')
          .getByText("Priced in EUR: your store sells in USD")
          .waitFor();
        await productRow(page, "Руководство по цвету")
          .getByText("Priced in GBP: your store sells in USD")
          .waitFor();
        await page.getByText("Refund events were applied to the sales they refund (item 4)").waitFor();
      },
      attach: [],
      async productFiles(page: Page) {
        // Not a ZIP: refused with the server's words, nothing attached.
        await page.getByLabel("Upload a ZIP of Pixel Icons Pack's files").setInputFiles({
          name: "icons.zip",
          mimeType: "application/zip",
          buffer: pdf("not a zip"),
        });
        await productRow(page, "Pixel Icons Pack")
          .getByText("icons.zip is not a ZIP file. Upload a .zip of the product's files.")
          .waitFor();
        // The product's files as one ZIP: folders flattened, the Mac's own files left out.
        await attachZip(page, "Pixel Icons Pack", "Pixel Icons.zip", {
          "Pixel Icons/icons-24px.pdf": pdf("icons-24px"),
          "Pixel Icons/large/icons-48px.pdf": pdf("icons-48px"),
        });
        await productRow(page, "Pixel Icons Pack").getByText("Added 2 files from Pixel Icons.zip.").waitFor();
        await productRow(page, "Pixel Icons Pack").getByText("Will be created").waitFor();
        await bothWidths(page, "payhip-files-zip");
      },
      result: { "Products created": 1, "Past orders": 2 },
      async after(page: Page) {
        const sales = page.getByRole("region", { name: "Customer Sales" });
        // A UTF-8 address, its cart paid in pounds; the refunded sale refunded.
        await sales
          .getByRole("row")
          .filter({ hasText: "zoë.buyer3@example.com" })
          .getByText("£30.00")
          .waitFor();
        await sales
          .getByRole("row")
          .filter({ hasText: "buyer1@example.com" })
          .getByText("Refunded")
          .waitFor();
      },
    },
    {
      platform: "Polar",
      dir: "polar",
      files: [
        "orders-all-columns.csv",
        "customers.csv",
        "subscriptions-all-columns.csv",
        "api-license-keys.json",
      ],
      counts: { "New past orders": 4, "Refunded orders": 1, "Subscriptions to re-subscribe": 2 },
      async dryRun(page: Page) {
        // The row it cannot import, with its file and line.
        await page
          .getByRole("region", { name: "Rows we can't import" })
          .getByText(
            "Line 5 of subscriptions-all-columns.csv: This membership renews every '3 months'; Flatfee memberships renew monthly or yearly, so invite this member by hand",
          )
          .waitFor();
        await productRow(page, 'Lightroom Presets "Pro", 2025')
          .getByText("Priced in EUR: your store sells in USD")
          .waitFor();
      },
      attach: [],
      async productFiles(page: Page) {
        // One ZIP for all products: a folder each, named like the product; a folder of none is left out.
        await page.getByLabel("Upload one ZIP for all products").setInputFiles({
          name: "my-store.zip",
          mimeType: "application/zip",
          buffer: await zipOf({
            "pixel icons pack/icons.pdf": pdf("icons"),
            "Pro Membership/welcome.pdf": pdf("welcome"),
            "Old course/lesson-1.pdf": pdf("lesson"),
          }),
        });
        await page.getByText("my-store.zip", { exact: true }).waitFor();
        const leftOut = page.getByRole("list", { name: "Left out of the ZIP" });
        await leftOut.getByText("No product of this import has this name or id.", { exact: false }).waitFor();
        await page
          .getByRole("list", { name: "Files of Pixel Icons Pack" })
          .getByText("icons.pdf", { exact: true })
          .waitFor();
        await page
          .getByRole("list", { name: "Files of Pro Membership" })
          .getByText("welcome.pdf", { exact: true })
          .waitFor();
        await bothWidths(page, "polar-files-store-zip");
      },
      result: { "Products created": 2, "Past orders": 2, "Members to re-subscribe": 2 },
      async after(page: Page) {
        const sales = page.getByRole("region", { name: "Customer Sales" });
        await expect.poll(() => sales.getByTitle("Imported from Polar").count()).toBe(2);
      },
    },
  ])(
    "$platform: its sample exports, the dry run's tricky rows, files attached, run without emails",
    async ({ platform, dir, files, counts, dryRun, attach, productFiles, result, after }) => {
      const seller = await startImport(platform);
      await addExports(seller, dir, files);
      await checkImport(seller);
      expect(await stats(seller)).toMatchObject(counts);
      await dryRun(seller);
      for (const [index, title] of attach.entries()) await attachFile(seller, title, `file-${index + 1}.pdf`);
      await productFiles?.(seller);
      await seller.getByText(/no files yet/).waitFor({ state: "detached" });
      await screenshot(seller, `import-${dir}-dry-run-1280`);
      await runImport(seller, platform);
      expect(await stats(seller)).toMatchObject(result);
      // Without emails chosen, the result does not count any.
      expect(Object.keys(await stats(seller))).not.toContain("Buyers emailed");
      await seller.getByRole("link", { name: "See your products and sales" }).click();
      await after(seller);
    },
  );
});
