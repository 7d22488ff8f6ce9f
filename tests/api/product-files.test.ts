import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesIncludedLabel } from "../../src/contracts/download-terms";
import { ORDER_MESSAGES } from "../../src/contracts/orders";
import { PRODUCT_FILE_MESSAGES } from "../../src/contracts/product-files";
import { PRODUCT_MESSAGES } from "../../src/contracts/products";
import { STORAGE_QUOTA_BYTES, UPLOAD_MESSAGES } from "../../src/contracts/uploads";
import { minimalPdf, pngImage } from "../../src/server/features/uploads/test-fixtures";
import {
  downloadTokenOf,
  fileDownloadsUsed,
  purchaseFiles,
  startFileDownload,
} from "./support/purchase-downloads";
import { buyProduct, createProductWithFiles, productFilesOf, readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof readySeller>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
  [seller, other] = [await readySeller(t), await readySeller(t)];
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, cookie = seller.cookie) =>
  t.request({
    method: "POST",
    url: "/api/products",
    cookie,
    body: { title: "Pack", price: "5.00", inventoryType: "unlimited", ...body },
  });
const edit = (productId: string, body: unknown, cookie = seller.cookie) =>
  t.request({ method: "PATCH", url: `/api/products/${productId}`, cookie, body });
const uploadRow = (uploadId: string) =>
  t.db.selectFrom("uploads").selectAll().where("id", "=", uploadId).executeTakeFirst();
const pdf = (name: string, padding = 0, cookie = seller.cookie) =>
  upload(t, cookie, "product-file", name, minimalPdf(padding));
const productCount = async () =>
  Number(
    (
      await t.db
        .selectFrom("products")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", seller.userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("a product with several files", () => {
  it("is created with its files in order, each with the name buyers see; the API describes the first", async () => {
    const [a, b, c] = [await pdf("intro.pdf"), await pdf("part-2.pdf", 50), await pdf("extras.pdf", 90)];
    const response = await create({
      files: [{ uploadId: a, name: "  Start here  " }, { uploadId: b }, { uploadId: c, name: "Bonus" }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const product = response.json();
    expect(product).toMatchObject({ fileName: "Start here", fileType: "application/pdf", fileCount: 3 });
    const files = await productFilesOf(t, product.id);
    expect(files.map((file) => [file.upload_id, file.display_name, file.position])).toEqual([
      [a, "Start here", 0],
      [b, "part-2.pdf", 1],
      [c, "Bonus", 2],
    ]);
    for (const id of [a, b, c]) expect((await uploadRow(id))?.status).toBe("attached");
    const detail = await t.request({
      method: "GET",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(detail.json().files.map((file: { name: string; originalName: string }) => file.name)).toEqual([
      "Start here",
      "part-2.pdf",
      "Bonus",
    ]);
    const publicProduct = await t.request({ method: "GET", url: `/api/public/products/${product.id}` });
    expect(publicProduct.json()).toMatchObject({ fileCount: 3, fileSizeBytes: minimalPdf().length });
  });

  it("refuses every bad list on /new, creating nothing and attaching nothing", async () => {
    const mine = await pdf("mine.pdf");
    const theirs = await pdf("theirs.pdf", 0, other.cookie);
    const cover = await upload(t, seller.cookie, "product-cover", "cover.png", await pngImage());
    const inUse = (await createProductWithFiles(t, seller.cookie, ["used.pdf"])).files[0]!.upload_id;
    const before = await productCount();
    const cases: [string, Record<string, unknown>, string][] = [
      ["no files", { files: [] }, PRODUCT_MESSAGES.missingFields],
      [
        "21 files",
        { files: Array.from({ length: 21 }, (_, index) => ({ uploadId: `u${index}` })) },
        PRODUCT_FILE_MESSAGES.tooMany,
      ],
      [
        "a file twice",
        { files: [{ uploadId: mine }, { uploadId: mine }] },
        PRODUCT_FILE_MESSAGES.listedTwice,
      ],
      ["an empty name", { files: [{ uploadId: mine, name: "   " }] }, PRODUCT_FILE_MESSAGES.nameMissing],
      [
        "a long name",
        { files: [{ uploadId: mine, name: "x".repeat(201) }] },
        PRODUCT_FILE_MESSAGES.nameTooLong,
      ],
      [
        "a control character",
        { files: [{ uploadId: mine, name: "a\u0007b" }] },
        PRODUCT_FILE_MESSAGES.nameInvalid,
      ],
      ["an existing file id", { files: [{ id: "f1" }] }, PRODUCT_FILE_MESSAGES.entryInvalid],
    ];
    for (const [name, body, message] of cases) {
      const response = await create(body);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().message, name).toBe(message);
    }
    // Uploads the server refuses to attach: another seller's, one in use, a cover; the good one first.
    for (const bad of [theirs, inUse, cover, "no-such-upload"]) {
      const response = await create({ files: [{ uploadId: mine }, { uploadId: bad }] });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json()).toMatchObject({ code: "upload_not_ready", details: { field: "files" } });
    }
    expect(await productCount()).toBe(before);
    expect((await uploadRow(mine))?.status).toBe("completed");
    expect((await uploadRow(theirs))?.status).toBe("completed");
    expect((await uploadRow(cover))?.status).toBe("completed");
  });

  it("limits each file to 250 MB and all of them to the 5 GB quota", async () => {
    // A seller of its own: this one fills the quota.
    const filler = await readySeller(t);
    const intent = (sizeBytes: number) =>
      t.request({
        method: "POST",
        url: "/api/uploads",
        cookie: filler.cookie,
        body: { purpose: "product-file", fileName: "big.pdf", sizeBytes, contentType: "application/pdf" },
      });
    const tooBig = await intent(250 * 1024 * 1024 + 1);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().code).toBe("file_too_large");

    const { product, files } = await createProductWithFiles(t, filler.cookie, ["a.pdf", "b.pdf"]);
    const [first, second] = files;
    const secondSize = Number((await uploadRow(second!.upload_id))!.size_bytes);
    // As if the first file were big: the quota counts every file of every product at its real size.
    await t.db
      .updateTable("uploads")
      .set({ size_bytes: STORAGE_QUOTA_BYTES - secondSize - 100 })
      .where("id", "=", first!.upload_id)
      .execute();
    const full = await intent(200);
    expect(full.statusCode).toBe(400);
    expect(full.json()).toMatchObject({
      code: "storage_limit_reached",
      message: UPLOAD_MESSAGES.storageLimitReached(STORAGE_QUOTA_BYTES - 100),
    });
    expect((await intent(50)).statusCode).toBe(201);
    // Removing the big file frees its room at once.
    const removed = await edit(product.id, { files: [{ id: second!.id }] }, filler.cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await intent(200)).statusCode).toBe(201);
  });
});

describe("editing a product's files", () => {
  it("renames, reorders, adds and removes in one save; a removed file's row and bytes are gone", async () => {
    const { product, files } = await createProductWithFiles(t, seller.cookie, [
      "one.pdf",
      "two.pdf",
      "three.pdf",
    ]);
    const [one, two, three] = files;
    const removed = (await uploadRow(three!.upload_id))!;
    const added = await pdf("four.pdf", 30);
    const response = await edit(product.id, {
      files: [{ id: two!.id, name: "Chapter 2" }, { uploadId: added, name: "Chapter 4" }, { id: one!.id }],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ fileName: "Chapter 2", fileCount: 3 });
    expect(response.json().files.map((file: { name: string }) => file.name)).toEqual([
      "Chapter 2",
      "Chapter 4",
      "one.pdf",
    ]);
    expect((await productFilesOf(t, product.id)).map((file) => file.upload_id)).toEqual([
      two!.upload_id,
      added,
      one!.upload_id,
    ]);
    expect(await uploadRow(three!.upload_id)).toBeUndefined();
    expect(await t.storage.stat("product-files", removed.storage_key!)).toBeUndefined();
    expect((await uploadRow(added))?.status).toBe("attached");
  });

  it("refuses the last file's removal, other products' files and bad lists; nothing changes", async () => {
    const { product, files } = await createProductWithFiles(t, seller.cookie, ["keep.pdf", "also.pdf"]);
    const elsewhere = (await createProductWithFiles(t, seller.cookie, ["other.pdf"])).files[0]!;
    const fresh = await pdf("fresh.pdf");
    const theirs = await pdf("theirs.pdf", 0, other.cookie);
    const [keep, also] = files;
    const cases: [string, unknown, string][] = [
      ["no files", { files: [] }, PRODUCT_FILE_MESSAGES.noFiles],
      [
        "another product's file",
        { files: [{ id: keep!.id }, { id: elsewhere.id }] },
        PRODUCT_FILE_MESSAGES.notThisProduct,
      ],
      ["a file twice", { files: [{ id: keep!.id }, { id: keep!.id }] }, PRODUCT_FILE_MESSAGES.listedTwice],
      ["an entry without id or upload", { files: [{ name: "x" }] }, PRODUCT_FILE_MESSAGES.entryInvalid],
      ["an empty name", { files: [{ id: keep!.id, name: "" }] }, PRODUCT_FILE_MESSAGES.nameMissing],
      [
        "21 files",
        {
          files: [{ id: keep!.id }, ...Array.from({ length: 20 }, (_, index) => ({ uploadId: `u${index}` }))],
        },
        PRODUCT_FILE_MESSAGES.tooMany,
      ],
    ];
    for (const [name, body, message] of cases) {
      const response = await edit(product.id, { title: "Changed", ...(body as object) });
      expect(response.statusCode, name).toBe(400);
      expect(response.json().message, name).toBe(message);
    }
    // A new upload with someone else's: refused after the first was attached, so both roll back.
    const mixed = await edit(product.id, {
      files: [{ id: keep!.id }, { uploadId: fresh }, { uploadId: theirs }],
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toMatchObject({ code: "upload_not_ready", details: { field: "files" } });
    expect((await productFilesOf(t, product.id)).map((file) => [file.id, file.display_name])).toEqual([
      [keep!.id, "keep.pdf"],
      [also!.id, "also.pdf"],
    ]);
    expect((await uploadRow(fresh))?.status).toBe("completed");
    expect((await uploadRow(keep!.upload_id))?.status).toBe("attached");
    const detail = await t.request({
      method: "GET",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(detail.json().title).toBe("The Pack");
    // Another seller can't edit the files at all.
    expect((await edit(product.id, { files: [{ id: keep!.id }] }, other.cookie)).statusCode).toBe(404);
  });

  it("deleting the product deletes every file's row and bytes", async () => {
    const { product, files } = await createProductWithFiles(t, seller.cookie, ["x.pdf", "y.pdf", "z.pdf"]);
    const uploads = await Promise.all(files.map((file) => uploadRow(file.upload_id)));
    const deleted = await t.request({
      method: "DELETE",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
    });
    expect(deleted.statusCode).toBe(204);
    for (const stored of uploads) {
      expect(await uploadRow(stored!.id)).toBeUndefined();
      expect(await t.storage.stat("product-files", stored!.storage_key!)).toBeUndefined();
    }
  });
});

describe("buyers of a product with several files", () => {
  it("download each file 3 times; one file's downloads never use another's", async () => {
    const { product, files } = await createProductWithFiles(t, seller.cookie, ["a.pdf", "b.pdf"]);
    const orderId = await buyProduct(t, product.id, "two-files@example.com");
    const token = await downloadTokenOf(t, orderId);
    const listed = await purchaseFiles(t, token);
    expect(listed.map((file) => [file.name, file.sizeBytes, file.downloadsRemaining])).toEqual([
      ["a.pdf", minimalPdf(200).length, 3],
      ["b.pdf", minimalPdf(201).length, 3],
    ]);
    const [a, b] = listed;

    const noChoice = await startFileDownload(t, token);
    expect(noChoice.statusCode).toBe(400);
    expect(noChoice.json().message).toBe(ORDER_MESSAGES.chooseFile);

    for (const remaining of [2, 1, 0]) {
      const started = await startFileDownload(t, token, a!.id);
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json().downloadsRemaining).toBe(remaining);
      const file = await t.app.server.inject({ method: "GET", url: started.json().url });
      expect(file.rawPayload.equals(minimalPdf(200))).toBe(true);
      expect(file.headers["content-disposition"]).toContain("a.pdf");
    }
    const fourth = await startFileDownload(t, token, a!.id);
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json().message).toBe(ORDER_MESSAGES.limitReached);
    const otherFile = await startFileDownload(t, token, b!.id);
    expect(otherFile.statusCode).toBe(200);
    expect(otherFile.json().downloadsRemaining).toBe(2);
    expect(
      (await t.app.server.inject({ method: "GET", url: otherFile.json().url })).rawPayload.equals(
        minimalPdf(201),
      ),
    ).toBe(true);

    expect(await fileDownloadsUsed(t, orderId, files[0]!.upload_id)).toBe(3);
    expect(await fileDownloadsUsed(t, orderId, files[1]!.upload_id)).toBe(1);
    const order = await t.db
      .selectFrom("orders")
      .select("downloads_used")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(order.downloads_used).toBe(4);
    // The seller's sales table counts the order's downloads against 3 per file.
    const sales = await t.request({ method: "GET", url: "/api/orders", cookie: seller.cookie });
    expect(sales.json().sales.find((sale: { id: string }) => sale.id === orderId)).toMatchObject({
      downloadsUsed: 4,
      downloadsAllowed: 6,
    });
    const logs = await t.db
      .selectFrom("download_logs")
      .select("upload_id")
      .where("order_id", "=", orderId)
      .execute();
    expect(logs.map((log) => log.upload_id).sort()).toEqual(
      [files[0]!.upload_id, files[0]!.upload_id, files[0]!.upload_id, files[1]!.upload_id].sort(),
    );
    // The seller's reset gives every file its 3 back.
    const reset = await t.request({
      method: "POST",
      url: `/api/orders/${orderId}/reset-downloads`,
      cookie: seller.cookie,
    });
    expect(reset.statusCode).toBeLessThan(300);
    expect((await purchaseFiles(t, token)).map((file) => file.downloadsRemaining)).toEqual([3, 3]);
  });

  it("parallel clicks on one file cannot take more than its 3 downloads", async () => {
    const { product, files } = await createProductWithFiles(t, seller.cookie, ["race.pdf", "calm.pdf"]);
    const orderId = await buyProduct(t, product.id, "racer@example.com");
    const token = await downloadTokenOf(t, orderId);
    const [race] = await purchaseFiles(t, token);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => startFileDownload(t, token, race!.id)),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.statusCode === 403)).toHaveLength(9);
    expect(await fileDownloadsUsed(t, orderId, files[0]!.upload_id)).toBe(3);
    expect(await fileDownloadsUsed(t, orderId, files[1]!.upload_id)).toBe(0);
  });

  it("get files added later at once; a removed file disappears for everyone; a replaced one counts afresh", async () => {
    const { product, files } = await createProductWithFiles(t, seller.cookie, ["old.pdf", "stays.pdf"]);
    const orderId = await buyProduct(t, product.id, "early@example.com");
    const token = await downloadTokenOf(t, orderId);
    const [old, stays] = await purchaseFiles(t, token);
    for (let i = 0; i < 3; i++) expect((await startFileDownload(t, token, stays!.id)).statusCode).toBe(200);

    const added = await pdf("new.pdf", 400);
    const replacement = await pdf("stays-v2.pdf", 300);
    const response = await edit(product.id, {
      files: [
        { id: files[1]!.id, uploadId: replacement },
        { uploadId: added, name: "New chapter" },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);

    const after = await purchaseFiles(t, token);
    expect(after.map((file) => [file.name, file.downloadsRemaining])).toEqual([
      ["stays.pdf", 3],
      ["New chapter", 3],
    ]);
    const removed = await startFileDownload(t, token, old!.id);
    expect(removed.statusCode).toBe(403);
    expect(removed.json().message).toBe(ORDER_MESSAGES.fileRemoved);
    const fresh = await startFileDownload(t, token, after[1]!.id);
    expect(fresh.statusCode).toBe(200);
    const bytes = (await t.app.server.inject({ method: "GET", url: fresh.json().url })).rawPayload;
    expect(bytes.equals(minimalPdf(400))).toBe(true);
    const replaced = await startFileDownload(t, token, after[0]!.id);
    const replacedFile = await t.app.server.inject({ method: "GET", url: replaced.json().url });
    expect(replacedFile.rawPayload.equals(minimalPdf(300))).toBe(true);
    expect(replacedFile.headers["content-disposition"]).toContain("stays.pdf");

    // The library lists the same current files.
    const library = await t.request({ method: "GET", url: `/api/downloads/${token}` });
    expect(library.json().purchase.files.map((file: { name: string }) => file.name)).toEqual([
      "stays.pdf",
      "New chapter",
    ]);
  });

  it("the download page lists every file with its own form; a refusal names the file's problem", async () => {
    const { product } = await createProductWithFiles(t, seller.cookie, [
      "first.pdf",
      "second.pdf",
      "third.pdf",
    ]);
    // Before buying, the product page says what the purchase holds.
    const productPage = await t.request({ method: "GET", url: `/product/${product.id}` });
    expect(productPage.body).toContain(filesIncludedLabel(3));
    const orderId = await buyProduct(t, product.id, "page@example.com");
    const token = await downloadTokenOf(t, orderId);
    const files = await purchaseFiles(t, token);
    const page = await t.request({ method: "GET", url: `/download/${token}` });
    expect(page.statusCode).toBe(200);
    for (const file of files) {
      expect(page.body).toContain(`<input type="hidden" name="file" value="${file.id}"/>`);
      expect(page.body).toContain(file.name);
    }
    const post = (file: string) =>
      t.request({
        method: "POST",
        url: `/download/${token}`,
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
        body: `file=${file}`,
      });
    const started = await post(files[2]!.id);
    expect(started.statusCode).toBe(303);
    const bytes = (await t.app.server.inject({ method: "GET", url: String(started.headers.location) }))
      .rawPayload;
    expect(bytes.equals(minimalPdf(202))).toBe(true);
    const unknown = await post("not-a-file");
    expect(unknown.statusCode).toBe(403);
    expect(unknown.body).toContain(ORDER_MESSAGES.fileRemoved);
    // The other files are still offered.
    expect(unknown.body).toContain(`value="${files[0]!.id}"`);
  });
});
