import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PDF_STAMP_MESSAGES, stampLine } from "../../src/contracts/pdf-stamps";
import {
  deleteUnusedStampedCopies,
  makeStampJobHandler,
} from "../../src/server/features/pdf-stamps/stamp-queue";
import {
  handWrittenPdf,
  lastContentOfEachPage,
  samplePdf,
} from "../../src/server/features/pdf-stamps/test-pdfs";
import { pngImage } from "../../src/server/features/uploads/test-fixtures";
import { JobQueue } from "../../src/server/jobs/job-queue";
import { downloadTokenOf, purchaseFiles, startFileDownload } from "./support/purchase-downloads";
import { buyProduct, productFilesOf, readySeller, upload } from "./support/sellers";
import { createTestApp, signUp, type TestApp, uniqueEmail } from "./support/test-app";
import { eventually } from "./support/wait";

// Stamps are only made when a test runs them (stamps.runDue: a queue of the stamp jobs only), except
// where a test starts a queue in the background: so each test sees the queue before and after the work.
let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let other: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  t = await createTestApp({ listen: true, jobsInBackground: false });
  stamps = stampQueue();
  [seller, other] = [await readySeller(t), await signUp(t)];
}, 180_000);
afterAll(() => t.close());

const silentLog = { warn() {}, error() {} };
/** An instance's queue, with only the stamp jobs registered: runDue() answers how many stamps it ran. */
const stampQueue = () => {
  const queue = new JobQueue({ db: t.db, now: () => new Date(), log: silentLog });
  queue.register(makeStampJobHandler({ db: t.db, storage: t.storage }, () => new Date()));
  return queue;
};
let stamps: JobQueue;
/** A stamp's job, while it is queued or failed (a done job is gone). */
const stampJobOf = async (orderId: string) => {
  const [stamp] = await stampsOf(orderId);
  return t.db
    .selectFrom("jobs")
    .selectAll()
    .where("unique_key", "=", `pdf-stamp:${stamp!.id}`)
    .executeTakeFirst();
};
const latin1 = (text: string) => Buffer.from(text, "latin1");
/** The stamp line as its bytes sit in the file (the middle dot is one WinAnsi byte). */
const stampBytes = (email: string, orderId: string) => latin1(stampLine(email, orderId).replace("·", "\xb7"));

/** A live product of `files` (name and bytes, in order), stamping unless told otherwise. */
async function stampingProduct(
  files: Array<[string, Buffer]>,
  fields: Record<string, unknown> = {},
  owner: { cookie: string } = seller,
) {
  const entries = [];
  for (const [name, bytes] of files)
    entries.push({ uploadId: await upload(t, owner.cookie, "product-file", name, bytes) });
  const response = await t.request({
    method: "POST",
    url: "/api/products",
    cookie: owner.cookie,
    body: {
      title: "Stamped book",
      price: "12.00",
      inventoryType: "unlimited",
      files: entries,
      stampPdfs: true,
      ...fields,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const product = response.json() as { id: string; stampPdfs: boolean };
  return { product, files: await productFilesOf(t, product.id) };
}

const stampsOf = (orderId: string) =>
  t.db.selectFrom("pdf_stamps").selectAll().where("order_id", "=", orderId).orderBy("id").execute();

/** Counts one download of a file and fetches its bytes through the storage link. */
async function download(token: string, fileId: string) {
  const started = await startFileDownload(t, token, fileId);
  if (started.statusCode !== 200)
    return { status: started.statusCode, message: started.json().message as string };
  const file = await t.app.server.inject({ method: "GET", url: started.json().url });
  expect(file.statusCode).toBe(200);
  return { status: 200, bytes: file.rawPayload };
}

describe("the stamping setting", () => {
  it("is off unless asked for, set on /new and by an edit, and refuses what is not a yes or no", async () => {
    const { product } = await stampingProduct([["book.pdf", await samplePdf()]], { stampPdfs: undefined });
    expect(product.stampPdfs).toBe(false);
    const on = await t.request({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
      body: { stampPdfs: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().stampPdfs).toBe(true);
    const bad = await t.request({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
      body: { stampPdfs: "yes" },
    });
    expect(bad.statusCode).toBe(400);
    const stored = await t.db
      .selectFrom("products")
      .select("stamp_pdfs")
      .where("id", "=", product.id)
      .executeTakeFirstOrThrow();
    expect(stored.stamp_pdfs).toBe(true);
  });

  it("the edit page says which files will be stamped; other sellers get 404", async () => {
    const { product } = await stampingProduct([
      ["book.pdf", await samplePdf()],
      ["cover.png.zip", await zipOfPng()],
    ]);
    const status = await t.request({
      method: "GET",
      url: `/api/products/${product.id}/pdf-stamps`,
      cookie: seller.cookie,
    });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toMatchObject({
      stampPdfs: true,
      files: [
        { name: "book.pdf", notStamped: null },
        { name: "cover.png.zip", notStamped: "Not a PDF: delivered as uploaded." },
      ],
      stampedCount: 0,
      pendingCount: 0,
      problems: [],
    });
    const foreign = await t.request({
      method: "GET",
      url: `/api/products/${product.id}/pdf-stamps`,
      cookie: other.cookie,
    });
    expect(foreign.statusCode).toBe(404);
    const signedOut = await t.request({ method: "GET", url: `/api/products/${product.id}/pdf-stamps` });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe("a buyer of a stamping product", () => {
  it("gets the receipt at once; the stamp is queued and made after, and then downloaded with their email", async () => {
    const original = await samplePdf({ pages: 5 });
    const { product, files } = await stampingProduct([["book.pdf", original]]);
    const buyer = uniqueEmail("buyer");
    const orderId = await buyProduct(t, product.id, buyer);

    // Committed with the order: the receipt and a pending stamp, nothing stamped yet.
    const receipt = await t.db
      .selectFrom("outbox_emails")
      .select(["created_at"])
      .where("to_address", "=", buyer)
      .executeTakeFirst();
    expect(receipt).toBeDefined();
    const [queued] = await stampsOf(orderId);
    expect(queued).toMatchObject({
      status: "pending",
      upload_id: files[0]!.upload_id,
      stamped_key: null,
    });
    // Its job was committed with it, in the seller's group.
    expect(await stampJobOf(orderId)).toMatchObject({
      status: "pending",
      attempts: 0,
      group_key: `seller:${seller.userId}`,
    });

    // A download asked for meanwhile waits for the copy, and is not counted.
    const token = await downloadTokenOf(t, orderId);
    expect(await download(token, files[0]!.id)).toEqual({
      status: 409,
      message: PDF_STAMP_MESSAGES.preparing,
    });
    expect((await purchaseFiles(t, token))[0]!.downloadsRemaining).toBe(3);

    expect(await stamps.runDue()).toBe(1);
    const [stamped] = await stampsOf(orderId);
    expect(stamped).toMatchObject({ status: "stamped", pages: 5 });
    expect(await stampJobOf(orderId)).toBeUndefined();
    expect(stamped!.finished_at!.getTime()).toBeGreaterThanOrEqual(receipt!.created_at.getTime());

    const got = await download(token, files[0]!.id);
    expect(got.status).toBe(200);
    expect(got.bytes!.includes(stampBytes(buyer, orderId))).toBe(true);
    // The original comes first, unchanged, and the copy still opens with every page.
    expect(got.bytes!.subarray(0, original.length).equals(original)).toBe(true);
    expect((await PDFDocument.load(got.bytes!)).getPageCount()).toBe(5);
    const pages = await lastContentOfEachPage(got.bytes!);
    expect(pages.every((content) => content.includes(buyer))).toBe(true);
    expect((await purchaseFiles(t, token))[0]!.downloadsRemaining).toBe(2);
    // Another buyer gets their own copy; the seller's original is untouched.
    const secondBuyer = uniqueEmail("second");
    const secondOrder = await buyProduct(t, product.id, secondBuyer);
    await stamps.runDue();
    const second = await download(await downloadTokenOf(t, secondOrder), files[0]!.id);
    expect(second.bytes!.includes(stampBytes(secondBuyer, secondOrder))).toBe(true);
    expect(second.bytes!.includes(latin1(buyer))).toBe(false);
    const originalRow = await t.db
      .selectFrom("uploads")
      .select("storage_key")
      .where("id", "=", files[0]!.upload_id)
      .executeTakeFirstOrThrow();
    const stored = await t.storage.read("product-files", originalRow.storage_key!);
    const chunks: Buffer[] = [];
    for await (const chunk of stored) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(original)).toBe(true);
  });

  it("is stamped in the background once the sale is committed, without anyone asking", async () => {
    const worker = stampQueue();
    await worker.start({ notifications: t.database.notifications, housekeeping: false });
    try {
      const { product, files } = await stampingProduct([["book.pdf", await samplePdf({ pages: 2 })]]);
      const buyer = uniqueEmail("background");
      const orderId = await buyProduct(t, product.id, buyer);
      await eventually(async () => expect((await stampsOf(orderId))[0]?.status).toBe("stamped"));
      const got = await download(await downloadTokenOf(t, orderId), files[0]!.id);
      expect(got.bytes!.includes(stampBytes(buyer, orderId))).toBe(true);
    } finally {
      await worker.stop();
    }
  });

  it("stamps each PDF of the order once, leaves other files alone, and two workers never share a stamp", async () => {
    const zip = await zipOfPng();
    const { product, files } = await stampingProduct([
      ["part-1.pdf", await samplePdf({ pages: 2 })],
      ["extras.zip", zip],
      ["part-2.pdf", await samplePdf({ pages: 3, objectStreams: false })],
    ]);
    const buyer = uniqueEmail("multi");
    const orderId = await buyProduct(t, product.id, buyer);
    expect((await stampsOf(orderId)).map((stamp) => stamp.upload_id)).toEqual([
      files[0]!.upload_id,
      files[2]!.upload_id,
    ]);

    const second = stampQueue();
    // Two instances' queues: each stamp is run by exactly one of them, once.
    const [first, other] = await Promise.all([stamps.runDue(), second.runDue()]);
    expect(first + other).toBe(2);
    const made = await stampsOf(orderId);
    expect(made.map((stamp) => [stamp.status, stamp.pages])).toEqual([
      ["stamped", 2],
      ["stamped", 3],
    ]);
    const token = await downloadTokenOf(t, orderId);
    expect((await download(token, files[2]!.id)).bytes!.includes(stampBytes(buyer, orderId))).toBe(true);
    expect((await download(token, files[1]!.id)).bytes!.equals(zip)).toBe(true);
  });

  it("a PDF added after the sale is stamped for past buyers at their first download", async () => {
    const { product, files } = await stampingProduct([["book.pdf", await samplePdf({ pages: 1 })]]);
    const buyer = uniqueEmail("later");
    const orderId = await buyProduct(t, product.id, buyer);
    await stamps.runDue();
    const added = await upload(
      t,
      seller.cookie,
      "product-file",
      "appendix.pdf",
      await samplePdf({ pages: 2 }),
    );
    const edit = await t.request({
      method: "PATCH",
      url: `/api/products/${product.id}`,
      cookie: seller.cookie,
      body: { files: [{ id: files[0]!.id }, { uploadId: added }] },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const appendix = (await productFilesOf(t, product.id))[1]!;

    const token = await downloadTokenOf(t, orderId);
    expect((await download(token, appendix.id)).status).toBe(409);
    await stamps.runDue();
    const got = await download(token, appendix.id);
    expect(got.bytes!.includes(stampBytes(buyer, orderId))).toBe(true);
    expect((await PDFDocument.load(got.bytes!)).getPageCount()).toBe(2);
  });

  it("a product that doesn't stamp queues nothing and serves the original", async () => {
    const original = await samplePdf({ pages: 1 });
    const { product, files } = await stampingProduct([["book.pdf", original]], { stampPdfs: false });
    const orderId = await buyProduct(t, product.id, uniqueEmail("plain"));
    expect(await stampsOf(orderId)).toEqual([]);
    const got = await download(await downloadTokenOf(t, orderId), files[0]!.id);
    expect(got.bytes!.equals(original)).toBe(true);
  });
});

describe("the stamp queue", () => {
  it("is shared fairly: a seller with many stamps queued first doesn't hold up another's", async () => {
    const busy = await stampingProduct([
      ["volume-1.pdf", await samplePdf({ pages: 40 })],
      ["volume-2.pdf", await samplePdf({ pages: 40 })],
    ]);
    const busyOrders = [
      await buyProduct(t, busy.product.id, uniqueEmail("many-1")),
      await buyProduct(t, busy.product.id, uniqueEmail("many-2")),
    ];
    const otherSeller = await readySeller(t);
    const small = await stampingProduct([["leaflet.pdf", await samplePdf({ pages: 1 })]], {}, otherSeller);
    const otherOrder = await buyProduct(t, small.product.id, uniqueEmail("one"));

    expect(await stamps.runDue()).toBe(5);
    const busyStamps = (await Promise.all(busyOrders.map(stampsOf))).flat();
    const [otherStamp] = await stampsOf(otherOrder);
    expect([...busyStamps, otherStamp].map((stamp) => stamp!.status)).toEqual(Array(5).fill("stamped"));
    // Queued last, it was made alongside the first seller's first stamp, not after all four of them.
    const busyFinished = busyStamps.map((stamp) => stamp.finished_at!.getTime()).sort((a, b) => a - b);
    expect(otherStamp!.finished_at!.getTime()).toBeLessThanOrEqual(busyFinished[1]!);
  });
});

describe("when stamping fails", () => {
  it("an encrypted PDF falls back to the original, and the seller sees why on the edit page", async () => {
    const encrypted = handWrittenPdf("/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >> ");
    const { product, files } = await stampingProduct([["locked.pdf", encrypted]]);
    const buyer = uniqueEmail("locked");
    const orderId = await buyProduct(t, product.id, buyer);
    await stamps.runDue();
    expect((await stampsOf(orderId))[0]).toMatchObject({ status: "failed", failure: "encrypted" });
    // A failure of the file's own is the stamp's outcome, not the job's: nothing is retried.
    expect(await stampJobOf(orderId)).toBeUndefined();

    const got = await download(await downloadTokenOf(t, orderId), files[0]!.id);
    expect(got.bytes!.equals(encrypted)).toBe(true);
    const status = await t.request({
      method: "GET",
      url: `/api/products/${product.id}/pdf-stamps`,
      cookie: seller.cookie,
    });
    // The file itself is marked: its next buyers will not get a stamp either.
    expect(status.json().files).toEqual([
      { name: "locked.pdf", sizeBytes: encrypted.length, notStamped: PDF_STAMP_MESSAGES.reasons.encrypted },
    ]);
    expect(status.json().problems).toEqual([
      {
        orderId,
        email: buyer,
        fileName: "locked.pdf",
        reason: PDF_STAMP_MESSAGES.reasons.encrypted,
        at: expect.any(String),
      },
    ]);

    // The next buyer's stamp fails at once for the same reason: the file is not read again.
    const nextOrder = await buyProduct(t, product.id, uniqueEmail("locked-again"));
    await stamps.runDue();
    expect((await stampsOf(nextOrder))[0]).toMatchObject({
      status: "failed",
      failure: "encrypted",
      last_error: "the file failed to stamp for an earlier buyer",
    });
  });

  it("a storage failure is retried with backoff, then given up on: the original is served", async () => {
    const { product, files } = await stampingProduct([["book.pdf", await samplePdf({ pages: 1 })]]);
    const orderId = await buyProduct(t, product.id, uniqueEmail("flaky"));
    // The original's bytes vanish from storage (an outage, as far as the stamp can tell).
    const uploadRow = await t.db
      .selectFrom("uploads")
      .select("storage_key")
      .where("id", "=", files[0]!.upload_id)
      .executeTakeFirstOrThrow();
    const saved = await t.storage.stat("product-files", uploadRow.storage_key!);
    expect(saved).toBeDefined();
    await t.db
      .updateTable("uploads")
      .set({ storage_key: `${uploadRow.storage_key}-gone` })
      .where("id", "=", files[0]!.upload_id)
      .execute();

    const before = Date.now();
    await stamps.runDue();
    expect((await stampsOf(orderId))[0]).toMatchObject({ status: "pending" });
    const retrying = await stampJobOf(orderId);
    expect(retrying).toMatchObject({ status: "pending", attempts: 1 });
    expect(retrying!.last_error).toBeTruthy();
    // The first retry is 30 s later: a round now finds nothing due.
    expect(retrying!.run_at.getTime()).toBeGreaterThanOrEqual(before + 29_000);
    expect(await stamps.runDue()).toBe(0);

    // The last attempt fails too: stamping stops and the original is served (once it is back).
    await t.db
      .updateTable("jobs")
      .set({ attempts: 5, run_at: new Date(Date.now() - 1000) })
      .where("id", "=", retrying!.id)
      .execute();
    await stamps.runDue();
    expect((await stampsOf(orderId))[0]).toMatchObject({ status: "failed", failure: "kept-failing" });
    expect(await stampJobOf(orderId)).toMatchObject({ status: "failed", attempts: 6 });
    await t.db
      .updateTable("uploads")
      .set({ storage_key: uploadRow.storage_key })
      .where("id", "=", files[0]!.upload_id)
      .execute();
    const got = await download(await downloadTokenOf(t, orderId), files[0]!.id);
    expect(got.status).toBe(200);
    expect(got.bytes!.includes(latin1("Licensed to"))).toBe(false);
  });

  it("a stamp still waiting after 10 minutes lets the buyer have the original", async () => {
    const original = await samplePdf({ pages: 1 });
    const { product, files } = await stampingProduct([["book.pdf", original]]);
    const orderId = await buyProduct(t, product.id, uniqueEmail("stuck"));
    await t.db
      .updateTable("pdf_stamps")
      .set({ created_at: new Date(Date.now() - 11 * 60_000) })
      .where("order_id", "=", orderId)
      .execute();
    const got = await download(await downloadTokenOf(t, orderId), files[0]!.id);
    expect(got.bytes!.equals(original)).toBe(true);
  });
});

describe("stamped copies are deleted", () => {
  it("with the product, with a removed file, and after a refund; nothing else is touched", async () => {
    const make = async () => {
      const made = await stampingProduct([
        ["a.pdf", await samplePdf({ pages: 1 })],
        ["b.pdf", await samplePdf({ pages: 1 })],
      ]);
      const orderId = await buyProduct(t, made.product.id, uniqueEmail("cleanup"));
      await stamps.runDue();
      return { ...made, orderId, stamps: await stampsOf(orderId) };
    };
    const copyExists = async (key: string | null) => Boolean(await t.storage.stat("product-files", key!));
    const [deleted, edited, refunded, kept] = [await make(), await make(), await make(), await make()];
    for (const { stamps } of [deleted, edited, refunded, kept]) {
      expect(stamps.map((stamp) => stamp.status)).toEqual(["stamped", "stamped"]);
      for (const stamp of stamps) expect(await copyExists(stamp.stamped_key)).toBe(true);
    }

    const removed = await t.request({
      method: "DELETE",
      url: `/api/products/${deleted.product.id}`,
      cookie: seller.cookie,
    });
    expect(removed.statusCode).toBeLessThan(300);
    const dropped = await t.request({
      method: "PATCH",
      url: `/api/products/${edited.product.id}`,
      cookie: seller.cookie,
      body: { files: [{ id: edited.files[0]!.id }] },
    });
    expect(dropped.statusCode, dropped.body).toBe(200);
    const refund = await t.request({
      method: "POST",
      url: `/api/orders/${refunded.orderId}/refund`,
      cookie: seller.cookie,
    });
    expect(refund.statusCode, refund.body).toBe(204);

    await deleteUnusedStampedCopies(t.db, t.storage, new Date());
    for (const stamp of [...deleted.stamps, edited.stamps[1]!, ...refunded.stamps]) {
      expect(await copyExists(stamp.stamped_key)).toBe(false);
    }
    expect(await stampsOf(deleted.orderId)).toEqual([]);
    expect((await stampsOf(edited.orderId)).map((stamp) => stamp.upload_id)).toEqual([
      edited.stamps[0]!.upload_id,
    ]);
    expect(await stampsOf(refunded.orderId)).toEqual([]);
    for (const stamp of [edited.stamps[0]!, ...kept.stamps])
      expect(await copyExists(stamp.stamped_key)).toBe(true);
    expect(await stampsOf(kept.orderId)).toHaveLength(2);
  });
});

/** A ZIP holding a PNG: a product file that is not a PDF. */
async function zipOfPng(): Promise<Buffer> {
  const { zipArchive } = await import("../../src/server/features/uploads/test-fixtures");
  return zipArchive([{ name: "cover.png", data: await pngImage(40, 20) }]);
}
