import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import Fastify from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readySeller } from "../../../../tests/api/support/sellers";
import { createTestApp, type TestApp } from "../../../../tests/api/support/test-app";
import { STORAGE_QUOTA_BYTES, uploadErrorTitle } from "../../../contracts/uploads";
import { type LocalDiskStorage, localDiskStorage } from "../../adapters/storage/local-disk";
import { registerErrorHandling } from "../../http/errors";
import { attachUpload } from "./attach-upload";
import { CHECKING_GRACE_MS, completeUpload } from "./complete-upload";
import { UPLOAD_KEY_SWEEP_DELAY_MS, UPLOAD_LINK_TTL_SECONDS } from "./create-upload-intent";
import { deleteStoredFile } from "./delete-upload";
import { registerFileRoutes } from "./file-routes";
import { purgeExpiredUploads, UNUSED_UPLOAD_TTL_MS } from "./purge-expired-uploads";
import { storageUsedBytes } from "./queries";
import {
  eicar,
  elfProgram,
  harmlessEntries,
  minimalPdf,
  pngImage,
  svgWithScript,
  windowsProgram,
  zipArchive,
} from "./test-fixtures";
import { findZipProblem } from "./zip-inspection";

const MB = 1024 * 1024;

let t: TestApp;
let root: string;
let storage: LocalDiskStorage;
let seller: { cookie: string; userId: string };
let otherSeller: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  // The app registers the upload routes itself, on the test app's local storage.
  root = t.storageRoot;
  storage = t.storage;
  seller = await readySeller(t);
  otherSeller = await readySeller(t);
});
afterAll(async () => {
  await t?.close();
});

type Purpose = "product-file" | "product-cover" | "profile-picture";

const requestIntent = (
  cookie: string,
  purpose: Purpose,
  fileName: string,
  sizeBytes: number,
  contentType = "",
) =>
  t.request({
    method: "POST",
    url: "/api/uploads",
    cookie,
    body: { purpose, fileName, sizeBytes, contentType },
  });

const putBytes = (url: string, headers: Record<string, string>, bytes: Buffer) =>
  t.app.server.inject({ method: "PUT", url, headers, payload: bytes });

const complete = (cookie: string, uploadId: string) =>
  t.request({ method: "POST", url: `/api/uploads/${uploadId}/complete`, cookie });

/** Intent, PUT, complete: what the browser does. */
async function uploadFile(purpose: Purpose, fileName: string, bytes: Buffer, contentType = "", who = seller) {
  const intent = await requestIntent(who.cookie, purpose, fileName, bytes.length, contentType);
  expect(intent.statusCode, intent.body).toBe(201);
  const { uploadId, url, headers } = intent.json() as {
    uploadId: string;
    url: string;
    headers: Record<string, string>;
  };
  const put = await putBytes(url, headers, bytes);
  expect(put.statusCode, put.body).toBe(200);
  return { uploadId, completed: await complete(who.cookie, uploadId) };
}

const uploadRow = (uploadId: string) =>
  t.db.selectFrom("uploads").selectAll().where("id", "=", uploadId).executeTakeFirst();

/** Every file under the storage root, staging area included. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function expectRefusedWithNothingLeft(
  response: Awaited<ReturnType<typeof complete>>,
  uploadId: string,
  message: RegExp,
) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toMatchObject({ code: "invalid_file", message: expect.stringMatching(message) });
  expect(uploadErrorTitle(response.json().code)).toBe("Invalid file");
  expect(await uploadRow(uploadId)).toBeUndefined();
  expect(
    (await storedFiles()).filter((file) => file.includes(uploadId) || file.includes(".incoming")),
  ).toEqual([]);
}

const filesBefore = async () => new Set(await storedFiles());
async function expectNoNewFiles(before: Set<string>) {
  expect((await storedFiles()).filter((file) => !before.has(file))).toEqual([]);
}

const sellerUploadCount = async (sellerId: string) =>
  (await t.db.selectFrom("uploads").select("id").where("seller_id", "=", sellerId).execute()).length;

/** What a full disk throws: the error code Node gives a write that found no space left. */
const noSpaceError = () =>
  Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

/** Passes `bytes` through, then fails the way a write to a full disk does. */
const diskFullAfter = (bytes: number) => {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > bytes) callback(noSpaceError());
      else callback(null, chunk);
    },
  });
};

describe("upload intent: limits checked before any byte is sent", () => {
  it("requires a signed-in seller", async () => {
    const response = await requestIntent("", "product-file", "book.pdf", 1000, "application/pdf");
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe("User not authenticated");
  });

  it("refuses product files over 250MB with the size in the message", async () => {
    const response = await requestIntent(seller.cookie, "product-file", "course.mp4", 300 * MB, "video/mp4");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "file_too_large",
      message: "File size exceeds 250MB limit. Your file is 300.00MB",
    });
    const exactlyAtLimit = await requestIntent(
      seller.cookie,
      "product-file",
      "course.mp4",
      250 * MB,
      "video/mp4",
    );
    expect(exactlyAtLimit.statusCode).toBe(201);
    await t.request({
      method: "DELETE",
      url: `/api/uploads/${exactlyAtLimit.json().uploadId}`,
      cookie: seller.cookie,
    });
  });

  it("refuses product types outside pdf, zip, mp3, mp4, epub, doc, docx", async () => {
    const response = await requestIntent(
      seller.cookie,
      "product-file",
      "setup.exe",
      1000,
      "application/x-msdownload",
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "invalid_file",
      message: "Invalid files. Allowed formats: PDF, ZIP, MP3, MP4, EPUB, DOC, DOCX",
    });
  });

  it("lets a file pass on its type alone or on its extension alone", async () => {
    const byType = await requestIntent(seller.cookie, "product-file", "ebook", 1000, "application/pdf");
    const byExtension = await requestIntent(seller.cookie, "product-file", "notes.DOCX", 1000, "");
    expect(byType.statusCode).toBe(201);
    expect(byExtension.statusCode).toBe(201);
    for (const response of [byType, byExtension]) {
      await t.request({
        method: "DELETE",
        url: `/api/uploads/${response.json().uploadId}`,
        cookie: seller.cookie,
      });
    }
  });

  it("refuses covers that are not jpg, jpeg, png, webp, gif or svg, or over 10MB", async () => {
    const wrongType = await requestIntent(
      seller.cookie,
      "product-cover",
      "cover.pdf",
      1000,
      "application/pdf",
    );
    expect(wrongType.json()).toEqual({
      code: "invalid_file",
      message: "Invalid files. Allowed formats: JPG, JPEG, PNG, WEBP, GIF, SVG",
    });
    const tooLarge = await requestIntent(seller.cookie, "product-cover", "cover.png", 11 * MB, "image/png");
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toEqual({
      code: "file_too_large",
      message: "File size exceeds 10MB limit. Your file is 11.00MB",
    });
  });

  it("wants profile pictures to be images under 5MB ('File too large')", async () => {
    const atFive = await requestIntent(seller.cookie, "profile-picture", "me.jpg", 5 * MB, "image/jpeg");
    expect(atFive.statusCode).toBe(400);
    expect(atFive.json()).toEqual({
      code: "file_too_large",
      message: "Profile picture must be less than 5MB",
    });
    expect(uploadErrorTitle(atFive.json().code)).toBe("File too large");
    const notImage = await requestIntent(seller.cookie, "profile-picture", "me.pdf", 1000, "application/pdf");
    expect(notImage.json()).toEqual({
      code: "invalid_file",
      message: "Profile picture must be an image file",
    });
  });

  it("refuses empty files and malformed requests", async () => {
    const empty = await requestIntent(seller.cookie, "product-file", "empty.pdf", 0, "application/pdf");
    expect(empty.json().code).toBe("invalid_file");
    const noPurpose = await t.request({
      method: "POST",
      url: "/api/uploads",
      cookie: seller.cookie,
      body: { fileName: "x.pdf", sizeBytes: 10 },
    });
    expect(noPurpose.statusCode).toBe(400);
  });

  it("refuses program and script names whatever type they declare, creating nothing", async () => {
    const before = await sellerUploadCount(seller.userId);
    const cases: [Purpose, string, string, string][] = [
      ["product-file", "invoice.bat", "application/pdf", ".BAT"],
      // Windows drops trailing dots and spaces, and control characters are dropped from stored names.
      ["product-file", "invoice.bat.", "application/pdf", ".BAT"],
      ["product-file", "invoice.Bat . ", "application/pdf", ".BAT"],
      ["product-file", "invoice.b\u0007at", "application/pdf", ".BAT"],
      ["product-file", "report.hta", "application/pdf", ".HTA"],
      ["product-file", "song.jse", "audio/mpeg", ".JSE"],
      ["product-file", "Setup.command", "application/zip", ".COMMAND"],
      ["product-cover", "cover.scr", "image/png", ".SCR"],
      ["profile-picture", "me.lnk", "image/jpeg", ".LNK"],
    ];
    for (const [purpose, fileName, contentType, shown] of cases) {
      const response = await requestIntent(seller.cookie, purpose, fileName, 1000, contentType);
      expect(response.statusCode, fileName).toBe(400);
      expect(response.json()).toEqual({
        code: "invalid_file",
        message: `${shown} files are programs or scripts, which can't be uploaded here.`,
      });
    }
    expect(await sellerUploadCount(seller.userId)).toBe(before);
  });

  it("signs upload links for 15 minutes: a signed S3 link cannot be revoked", async () => {
    const intent = (
      await requestIntent(seller.cookie, "product-file", "short.pdf", 1000, "application/pdf")
    ).json();
    const claims = storage.readUploadToken(intent.url.replace("/files/upload/", ""));
    const secondsLeft = claims.expiresAt - Date.now() / 1000;
    expect(UPLOAD_LINK_TTL_SECONDS).toBe(15 * 60);
    expect(secondsLeft).toBeGreaterThan(UPLOAD_LINK_TTL_SECONDS - 60);
    expect(secondsLeft).toBeLessThanOrEqual(UPLOAD_LINK_TTL_SECONDS);
    // The intent itself still gives an hour to complete.
    expect(new Date(intent.expiresAt).getTime() - Date.now()).toBeGreaterThan(55 * 60_000);
    await t.request({ method: "DELETE", url: `/api/uploads/${intent.uploadId}`, cookie: seller.cookie });
  });

  it("returns a PUT target for a key the server chose", async () => {
    const response = await requestIntent(
      seller.cookie,
      "product-file",
      "../../My Book.pdf",
      1234,
      "application/pdf",
    );
    expect(response.statusCode).toBe(201);
    const intent = response.json();
    expect(intent).toMatchObject({ method: "PUT", headers: { "Content-Type": "application/pdf" } });
    expect(intent.url).toMatch(/^\/files\/upload\//);
    const row = await uploadRow(intent.uploadId);
    expect(row).toMatchObject({ status: "pending", original_name: "My Book.pdf", declared_size_bytes: 1234 });
    expect(row?.upload_key).toMatch(new RegExp(`^${seller.userId}/\\d+-[0-9a-f]{16}\\.pdf$`));
    await t.request({ method: "DELETE", url: `/api/uploads/${intent.uploadId}`, cookie: seller.cookie });
  });
});

describe("storage quota (5 GB)", () => {
  it("counts stored files and pending intents, and refuses what would go over", async () => {
    const quotaSeller = await readySeller(t);
    const storedBytes = STORAGE_QUOTA_BYTES - 100 * MB;
    await t.db
      .insertInto("uploads")
      .values({
        id: `quota-${quotaSeller.userId}`,
        seller_id: quotaSeller.userId,
        purpose: "product-file",
        status: "completed",
        original_name: "big.zip",
        declared_size_bytes: storedBytes,
        declared_type: "application/zip",
        upload_key: `${quotaSeller.userId}/1-big.zip`,
        size_bytes: storedBytes,
        expires_at: new Date(),
      })
      .execute();
    expect(await storageUsedBytes(t.db, quotaSeller.userId)).toBe(storedBytes);

    const tooMuch = await requestIntent(
      quotaSeller.cookie,
      "product-file",
      "more.zip",
      150 * MB,
      "application/zip",
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({
      code: "storage_limit_reached",
      message: "Storage limit reached: 4.90 GB of 5 GB used. Delete a product or choose a smaller file.",
    });

    const fits = await requestIntent(
      quotaSeller.cookie,
      "product-file",
      "fits.zip",
      60 * MB,
      "application/zip",
    );
    expect(fits.statusCode).toBe(201);
    // The pending 60MB counts: another 60MB no longer fits.
    const second = await requestIntent(
      quotaSeller.cookie,
      "product-file",
      "also.zip",
      60 * MB,
      "application/zip",
    );
    expect(second.json().code).toBe("storage_limit_reached");

    const usage = await t.request({ method: "GET", url: "/api/uploads/usage", cookie: quotaSeller.cookie });
    expect(usage.json()).toEqual({ usedBytes: storedBytes + 60 * MB, quotaBytes: STORAGE_QUOTA_BYTES });
  });
});

describe("completing an upload: content checks", () => {
  it("stores a real PDF under the seller's key and reports it", async () => {
    const pdf = minimalPdf(2000);
    const { uploadId, completed } = await uploadFile("product-file", "Guide.pdf", pdf, "application/pdf");
    expect(completed.statusCode, completed.body).toBe(200);
    const body = completed.json();
    expect(body).toMatchObject({
      uploadId,
      sizeBytes: pdf.length,
      contentType: "application/pdf",
      originalName: "Guide.pdf",
    });
    expect(body.key).toMatch(new RegExp(`^${seller.userId}/\\d+-[0-9a-f]+\\.pdf$`));
    expect(body.publicUrl).toBeUndefined();
    expect(await uploadRow(uploadId)).toMatchObject({ status: "completed", size_bytes: pdf.length });
    expect(await storage.stat("product-files", body.key)).toEqual({ sizeBytes: pdf.length });
    // Completing again answers the same.
    expect((await complete(seller.cookie, uploadId)).json()).toEqual(body);
  });

  it("refuses a renamed program (.pdf holding an ELF), leaving no row and no file", async () => {
    const { uploadId, completed } = await uploadFile(
      "product-file",
      "ebook.pdf",
      elfProgram(),
      "application/pdf",
    );
    await expectRefusedWithNothingLeft(completed, uploadId, /Linux program \(ELF\)/);
  });

  it("refuses a Windows program named .doc and a shell script named .mp3", async () => {
    const exe = await uploadFile("product-file", "letter.doc", windowsProgram(), "application/msword");
    await expectRefusedWithNothingLeft(exe.completed, exe.uploadId, /Windows program/);
    const script = Buffer.from("#!/bin/sh\nrm -rf ~\n");
    const sh = await uploadFile("product-file", "song.mp3", script, "audio/mpeg");
    await expectRefusedWithNothingLeft(sh.completed, sh.uploadId, /script/);
  });

  it("refuses the EICAR test file, at the start or at the end of a file", async () => {
    const plain = await uploadFile("product-file", "eicar.pdf", eicar(), "application/pdf");
    await expectRefusedWithNothingLeft(plain.completed, plain.uploadId, /virus test signature \(EICAR\)/);
    const hidden = Buffer.concat([minimalPdf(200_000), eicar()]);
    const atEnd = await uploadFile("product-file", "report.pdf", hidden, "application/pdf");
    await expectRefusedWithNothingLeft(atEnd.completed, atEnd.uploadId, /EICAR/);
  });

  it("refuses a file whose content is not what its name says", async () => {
    const { uploadId, completed } = await uploadFile(
      "product-file",
      "book.pdf",
      await pngImage(),
      "application/pdf",
    );
    await expectRefusedWithNothingLeft(completed, uploadId, /not a real PDF: its content is a PNG file/);
  });

  it("decides the format by the content, and refuses a name that disagrees with it", async () => {
    const pdf = minimalPdf(300);
    const misnamed = await uploadFile("product-file", "invoice.txt", pdf, "application/pdf");
    await expectRefusedWithNothingLeft(
      misnamed.completed,
      misnamed.uploadId,
      /name ends in \.txt, but its content is a PDF file\. Please rename it to end in \.pdf/,
    );

    // An upload recorded before names were checked (or by any other way in) is refused again at completion.
    const intent = (
      await requestIntent(seller.cookie, "product-file", "invoice.pdf", pdf.length, "application/pdf")
    ).json();
    await putBytes(intent.url, intent.headers, pdf);
    await t.db
      .updateTable("uploads")
      .set({ original_name: "invoice.bat" })
      .where("id", "=", intent.uploadId)
      .execute();
    await expectRefusedWithNothingLeft(
      await complete(seller.cookie, intent.uploadId),
      intent.uploadId,
      /\.BAT files are programs or scripts/,
    );

    // A name without an extension is held to its declared type, and served as that format.
    const bare = await uploadFile("product-file", "ebook", pdf, "application/pdf");
    expect(bare.completed.statusCode, bare.completed.body).toBe(200);
    expect(bare.completed.json()).toMatchObject({ contentType: "application/pdf", originalName: "ebook" });
  });

  it("refuses a PDF with a ZIP appended at its end (ZIP readers open it as that ZIP)", async () => {
    const hidden = zipArchive([{ name: "setup.exe", data: windowsProgram() }]);
    const polyglot = Buffer.concat([minimalPdf(200_000), hidden]);
    const { uploadId, completed } = await uploadFile(
      "product-file",
      "guide.pdf",
      polyglot,
      "application/pdf",
    );
    await expectRefusedWithNothingLeft(completed, uploadId, /PDF has a ZIP archive attached at its end/);

    // Bytes that merely look like a ZIP end record, with no central directory behind them, are no ZIP.
    const lookalike = Buffer.alloc(22);
    lookalike.writeUInt32LE(0x06054b50, 0);
    lookalike.writeUInt16LE(1, 8);
    lookalike.writeUInt16LE(1, 10);
    lookalike.writeUInt32LE(46, 12);
    const innocent = Buffer.concat([minimalPdf(100_000), lookalike, Buffer.from("\n%%EOF\n")]);
    const fine = await uploadFile("product-file", "fine.pdf", innocent, "application/pdf");
    expect(fine.completed.statusCode, fine.completed.body).toBe(200);
  });

  it("accepts a clean ZIP and a DOCX", async () => {
    const zip = zipArchive([
      { name: "readme.txt", data: Buffer.from("Thanks for buying!") },
      { name: "chapters/one.pdf", data: minimalPdf() },
    ]);
    const clean = await uploadFile("product-file", "bundle.zip", zip, "application/zip");
    expect(clean.completed.statusCode, clean.completed.body).toBe(200);
    expect(clean.completed.json().contentType).toBe("application/zip");

    const docx = zipArchive([
      { name: "[Content_Types].xml", data: Buffer.from("<Types/>") },
      { name: "word/document.xml", data: Buffer.from("<w:document/>") },
    ]);
    const word = await uploadFile("product-file", "essay.docx", docx);
    expect(word.completed.statusCode, word.completed.body).toBe(200);
  });

  it("refuses ZIPs holding programs: by name, by content, as an APK, nested, or the EICAR file", async () => {
    const cases: { entries: { name: string; data: Buffer }[]; message: RegExp }[] = [
      { entries: [{ name: "setup.exe", data: Buffer.from("anything") }], message: /program \(setup\.exe\)/ },
      {
        entries: [{ name: "tools/run.sh", data: Buffer.from("echo hi") }],
        message: /program \(tools\/run\.sh\)/,
      },
      { entries: [{ name: "notes.txt", data: elfProgram() }], message: /notes\.txt is a Linux program/ },
      {
        entries: [{ name: "AndroidManifest.xml", data: Buffer.from("<manifest/>") }],
        message: /Android app/,
      },
      { entries: [{ name: "eicar.com.txt", data: eicar() }], message: /virus test file/ },
      {
        entries: [
          { name: "inner.zip", data: zipArchive([{ name: "deep/payload.exe", data: windowsProgram() }]) },
        ],
        message: /payload\.exe/,
      },
    ];
    for (const { entries, message } of cases) {
      const { uploadId, completed } = await uploadFile("product-file", "bundle.zip", zipArchive(entries));
      await expectRefusedWithNothingLeft(completed, uploadId, message);
    }
  });

  it("refuses ZIPs holding scripts, shortcuts and launchers of every kind", async () => {
    for (const name of [
      "guide.hta",
      "tools/run.jse",
      "a.vbe",
      "job.wsf",
      "Start Here.lnk",
      "settings.reg",
      "console.msc",
      "Install.command",
      "setup.pif",
      "readme.txt.bat ",
    ]) {
      const zip = zipArchive([{ name, data: Buffer.from("anything") }]);
      const { uploadId, completed } = await uploadFile("product-file", "bundle.zip", zip);
      await expectRefusedWithNothingLeft(completed, uploadId, /contains a program/);
    }
  });

  it("checks every entry of a large ZIP by name and by content, not only the first 2,000", async () => {
    const byName = zipArchive([...harmlessEntries(2_001), { name: "setup.pif", data: Buffer.from("x") }]);
    const named = await uploadFile("product-file", "pages.zip", byName);
    await expectRefusedWithNothingLeft(named.completed, named.uploadId, /program \(setup\.pif\)/);

    const byContent = zipArchive([...harmlessEntries(2_001), { name: "notes.txt", data: windowsProgram() }]);
    const disguised = await uploadFile("product-file", "pages.zip", byContent);
    await expectRefusedWithNothingLeft(
      disguised.completed,
      disguised.uploadId,
      /notes\.txt is a Windows program/,
    );
  });

  it("refuses, saying why, a ZIP that cannot be checked whole", async () => {
    const nest = (levels: number): Buffer =>
      levels === 0
        ? zipArchive([{ name: "readme.txt", data: Buffer.from("deep") }])
        : zipArchive([{ name: `level-${levels}.zip`, data: nest(levels - 1) }]);
    const cases: { zip: Buffer; message: RegExp }[] = [
      { zip: zipArchive(harmlessEntries(10_001)), message: /more than 10,000 files, too many to check/ },
      { zip: nest(3), message: /ZIPs nested more than 3 levels deep \(level-1\.zip\)/ },
      {
        zip: zipArchive([{ name: "secret.pdf", data: minimalPdf(), encrypted: true }]),
        message: /Password-protected ZIPs can't be checked/,
      },
      {
        zip: zipArchive([{ name: "book.pdf", data: minimalPdf(), method: 12 }]),
        message: /stores book\.pdf with a compression method that can't be checked/,
      },
      {
        zip: zipArchive([
          { name: "extras.rar", data: Buffer.concat([Buffer.from("Rar!\x1a\x07\x00"), randomBytes(200)]) },
        ]),
        message: /RAR archive \(extras\.rar\), which can't be checked for programs/,
      },
      {
        zip: zipArchive([
          { name: "src.tgz", data: Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08]), randomBytes(200)]) },
        ]),
        message: /GZ archive \(src\.tgz\)/,
      },
    ];
    for (const { zip, message } of cases) {
      const { uploadId, completed } = await uploadFile("product-file", "bundle.zip", zip);
      await expectRefusedWithNothingLeft(completed, uploadId, message);
    }
    const twoLevelsIn = await uploadFile("product-file", "bundle.zip", nest(2));
    expect(twoLevelsIn.completed.statusCode, twoLevelsIn.completed.body).toBe(200);
  });

  it("refuses nested ZIPs too large to open in memory, one by one or together", async () => {
    const MB = 1024 * 1024;
    const storedZip = (bytes: number) =>
      zipArchive([{ name: "video.mp4", data: Buffer.alloc(bytes), method: 0 }]);
    const check = async (zip: Buffer) => {
      const key = `${seller.userId}/nested-${randomBytes(4).toString("hex")}.zip`;
      await storage.write("product-files", key, Readable.from([zip]));
      const problem = await findZipProblem(storage, { bucket: "product-files", key, sizeBytes: zip.length });
      await storage.delete("product-files", key);
      return problem;
    };
    const oneTooLarge = zipArchive([{ name: "big.zip", data: storedZip(17 * MB), method: 0 }]);
    expect(await check(oneTooLarge)).toMatch(/ZIP over 16 MB \(big\.zip\), too large to check/);
    const fiveLarge = zipArchive(
      Array.from({ length: 5 }, (_, index) => ({
        name: `part-${index}.zip`,
        data: storedZip(14 * MB),
        method: 0,
      })),
    );
    expect(await check(fiveLarge)).toMatch(/more than 64 MB of ZIPs inside it/);
  });

  it("refuses a damaged ZIP", async () => {
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    const { uploadId, completed } = await uploadFile("product-file", "bundle.zip", broken);
    await expectRefusedWithNothingLeft(completed, uploadId, /damaged/);
  });

  it("refuses a file smaller than announced, and says when nothing was uploaded yet", async () => {
    const intent = (
      await requestIntent(seller.cookie, "product-file", "a.pdf", 5000, "application/pdf")
    ).json();
    const early = await complete(seller.cookie, intent.uploadId);
    expect(early.statusCode).toBe(400);
    expect(early.json().code).toBe("upload_missing");
    expect(await uploadRow(intent.uploadId)).toBeDefined();

    await putBytes(intent.url, intent.headers, minimalPdf());
    const completed = await complete(seller.cookie, intent.uploadId);
    await expectRefusedWithNothingLeft(completed, intent.uploadId, /not the size announced/);
  });

  it("asks the virus scanner when one is configured, and refuses what it flags", async () => {
    const pdf = minimalPdf();
    const intent = (await requestIntent(seller.cookie, "product-file", "scan.pdf", pdf.length, "")).json();
    await putBytes(intent.url, intent.headers, pdf);
    const scanned: Buffer[] = [];
    const virusScanner = async (content: Readable) => {
      for await (const chunk of content) scanned.push(chunk as Buffer);
      return { infected: true as const, signature: "Win.Test.Flagged" };
    };
    await expect(
      completeUpload({ db: t.db, storage, virusScanner }, seller.userId, intent.uploadId),
    ).rejects.toMatchObject({
      code: "invalid_file",
      userMessage: expect.stringMatching(/Win\.Test\.Flagged/),
    });
    expect(Buffer.concat(scanned).equals(pdf)).toBe(true);
    expect(await uploadRow(intent.uploadId)).toBeUndefined();
  });

  it("refuses to complete an expired upload and removes it", async () => {
    const pdf = minimalPdf();
    const intent = (await requestIntent(seller.cookie, "product-file", "late.pdf", pdf.length, "")).json();
    await putBytes(intent.url, intent.headers, pdf);
    const twoHoursLater = new Date(Date.now() + 2 * 60 * 60_000);
    await expect(
      completeUpload({ db: t.db, storage }, seller.userId, intent.uploadId, twoHoursLater),
    ).rejects.toMatchObject({
      code: "upload_expired",
    });
    expect(await uploadRow(intent.uploadId)).toBeUndefined();
  });
});

describe("signed upload links", () => {
  async function freshIntent(sizeBytes = 1000) {
    return (
      await requestIntent(seller.cookie, "product-file", "x.pdf", sizeBytes, "application/pdf")
    ).json() as {
      uploadId: string;
      url: string;
      headers: Record<string, string>;
    };
  }

  it("stops a body bigger than the size signed into the link (413), keeping nothing", async () => {
    const before = await filesBefore();
    const intent = await freshIntent(1000);
    const response = await putBytes(intent.url, intent.headers, Buffer.alloc(5000, 1));
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe("file_too_large");
    // Also when the body arrives without a Content-Length (chunked).
    const chunked = await t.app.server.inject({
      method: "PUT",
      url: intent.url,
      headers: { "content-type": "application/pdf" },
      payload: Readable.from([Buffer.alloc(600, 1), Buffer.alloc(600, 2)]),
    });
    expect(chunked.statusCode).toBe(413);
    await expectNoNewFiles(before);
  });

  it("refuses a tampered token that points at another key (403)", async () => {
    const before = await filesBefore();
    const intent = await freshIntent();
    const token = intent.url.replace("/files/upload/", "");
    const [payload, mac] = token.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = Buffer.from(
      JSON.stringify({ ...claims, key: `${otherSeller.userId}/1-victim.pdf` }),
    ).toString("base64url");
    const response = await putBytes(`/files/upload/${forged}.${mac}`, {}, minimalPdf());
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: "link_invalid", message: "This upload link is not valid." });
    const bigger = Buffer.from(JSON.stringify({ ...claims, maxBytes: 10 * MB })).toString("base64url");
    expect((await putBytes(`/files/upload/${bigger}.${mac}`, {}, minimalPdf())).statusCode).toBe(403);
    await expectNoNewFiles(before);
  });

  it("refuses a token signed with another secret and an expired token (403)", async () => {
    const before = await filesBefore();
    const impostor = await localDiskStorage(root, { secret: "someone-else" });
    const foreign = await impostor.signedUploadTarget("product-files", `${seller.userId}/1-x.pdf`, {
      sizeBytes: 100,
      contentType: "application/pdf",
      expiresInSeconds: 60,
    });
    expect((await putBytes(foreign.url, {}, minimalPdf())).statusCode).toBe(403);

    const expired = await storage.signedUploadTarget("product-files", `${seller.userId}/1-x.pdf`, {
      sizeBytes: 100,
      contentType: "application/pdf",
      expiresInSeconds: -1,
    });
    const response = await putBytes(expired.url, {}, minimalPdf());
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: "link_expired",
      message: "This upload link has expired. Please start again for a new one.",
    });
    await expectNoNewFiles(before);
  });
});

describe("one check per upload, and links that close", () => {
  async function sentIntent(fileName: string, bytes: Buffer, purpose: Purpose = "product-file") {
    const intent = (await requestIntent(seller.cookie, purpose, fileName, bytes.length, "")).json() as {
      uploadId: string;
      url: string;
      headers: Record<string, string>;
    };
    expect((await putBytes(intent.url, intent.headers, bytes)).statusCode).toBe(200);
    return intent;
  }

  it("checks an upload once when six completions arrive together: no 500, one result", async () => {
    const pdf = minimalPdf(50_000);
    const intent = await sentIntent("together.pdf", pdf);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => complete(seller.cookie, intent.uploadId)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(
      statuses.every((status) => status === 200 || status === 409),
      String(statuses),
    ).toBe(true);
    const results = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json());
    expect(results.length).toBeGreaterThanOrEqual(1);
    for (const result of results) expect(result).toEqual(results[0]);
    for (const busy of answers.filter((answer) => answer.statusCode === 409)) {
      expect(busy.json()).toEqual({
        code: "upload_checking",
        message: "This upload is already being checked. Please wait a moment.",
      });
    }
    // Once done, every later call answers the same result, and the file was stored once.
    expect((await complete(seller.cookie, intent.uploadId)).json()).toEqual(results[0]);
    expect(await storage.stat("product-files", results[0].key)).toEqual({ sizeBytes: pdf.length });
    expect(await uploadRow(intent.uploadId)).toMatchObject({ status: "completed", size_bytes: pdf.length });
  });

  it("answers 409 to a completion while another is checking", async () => {
    const pdf = minimalPdf();
    const intent = await sentIntent("busy.pdf", pdf);
    await t.db.updateTable("uploads").set({ status: "checking" }).where("id", "=", intent.uploadId).execute();
    const busy = await complete(seller.cookie, intent.uploadId);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe("upload_checking");
    expect(await uploadRow(intent.uploadId)).toMatchObject({ status: "checking" });
  });

  it("closes the upload link once the upload is completed or refused: 409, nothing written", async () => {
    const pdf = minimalPdf();
    const done = await sentIntent("done.pdf", pdf);
    expect((await complete(seller.cookie, done.uploadId)).statusCode).toBe(200);
    const refused = await sentIntent("refused.pdf", elfProgram());
    expect((await complete(seller.cookie, refused.uploadId)).statusCode).toBe(400);

    const before = await filesBefore();
    for (const intent of [done, refused]) {
      const late = await putBytes(intent.url, intent.headers, pdf);
      expect(late.statusCode).toBe(409);
      expect(late.json()).toEqual({
        code: "upload_closed",
        message:
          "This upload is already finished or was cancelled, so its link accepts no more files. Please start the upload again.",
      });
    }
    await expectNoNewFiles(before);
  });

  it("sweeps bytes a link wrote after its upload was done or refused, once no PUT can be running", async () => {
    const pdf = minimalPdf();
    const done = await sentIntent("kept.pdf", pdf);
    const completed = (await complete(seller.cookie, done.uploadId)).json();
    const doneKey = (await uploadRow(done.uploadId))!.upload_key;
    const refused = await sentIntent("refused.pdf", elfProgram());
    const refusedKey = (await uploadRow(refused.uploadId))!.upload_key;
    expect((await complete(seller.cookie, refused.uploadId)).statusCode).toBe(400);
    // What a signed S3 link (which cannot be revoked) lets a client do after completion or refusal.
    for (const key of [doneKey, refusedKey]) {
      await storage.write("product-files", key, Readable.from([Buffer.alloc(1000, 7)]));
    }

    await purgeExpiredUploads(t.db, storage, new Date(Date.now() + UPLOAD_KEY_SWEEP_DELAY_MS - 60_000));
    expect(await storage.stat("product-files", doneKey)).toBeDefined();
    await purgeExpiredUploads(t.db, storage, new Date(Date.now() + UPLOAD_KEY_SWEEP_DELAY_MS + 60_000));
    expect(await storage.stat("product-files", doneKey)).toBeUndefined();
    expect(await storage.stat("product-files", refusedKey)).toBeUndefined();
    // The checked file is untouched.
    expect(await storage.stat("product-files", completed.key)).toEqual({ sizeBytes: pdf.length });
    expect(await uploadRow(done.uploadId)).toMatchObject({ status: "completed" });
  });

  it("purges a check that never finished (the process stopped), with every key recorded for it", async () => {
    const intent = await sentIntent("stuck.png", await pngImage(), "product-cover");
    const claimedAt = new Date();
    await t.db
      .updateTable("uploads")
      .set({
        status: "checking",
        expires_at: new Date(claimedAt.getTime() + CHECKING_GRACE_MS),
        source_key: `${seller.userId}/stuck-source.png`,
        bucket: "product-covers",
        storage_key: `${seller.userId}/stuck-source.jpg`,
        cover_variants: JSON.stringify([
          { key: `${seller.userId}/stuck-source-320w.webp`, width: 320, height: 168 },
          { key: `${seller.userId}/stuck-source-640w.webp`, width: 640, height: 336 },
        ]),
      })
      .where("id", "=", intent.uploadId)
      .execute();
    const row = (await uploadRow(intent.uploadId))!;
    await storage.write("product-files", row.source_key!, Readable.from([Buffer.from("source")]));
    await storage.write("product-covers", row.storage_key!, Readable.from([Buffer.from("og")]));
    // The process stopped after the first size was written.
    const written = row.cover_variants![0]!.key;
    await storage.write("product-covers", written, Readable.from([Buffer.from("320")]));

    await purgeExpiredUploads(t.db, storage, claimedAt);
    expect(await uploadRow(intent.uploadId)).toBeDefined();
    await purgeExpiredUploads(t.db, storage, new Date(claimedAt.getTime() + CHECKING_GRACE_MS + 1000));
    expect(await uploadRow(intent.uploadId)).toBeUndefined();
    expect(await storage.stat("product-files", row.upload_key)).toBeUndefined();
    expect(await storage.stat("product-files", row.source_key!)).toBeUndefined();
    expect(await storage.stat("product-covers", row.storage_key!)).toBeUndefined();
    expect(await storage.stat("product-covers", written)).toBeUndefined();
  });
});

describe("a full disk", () => {
  it("answers 507 with a clear message when the storage fills up during a PUT, keeping no partial file", async () => {
    const full: LocalDiskStorage = {
      ...storage,
      write: (bucket, key, body, options) =>
        storage.write(bucket, key, body.pipe(diskFullAfter(2_000)), options),
    };
    const logged: { msg: string; err?: { code?: string } }[] = [];
    const stream = { write: (line: string) => logged.push(JSON.parse(line)) };
    const server = Fastify({ logger: { level: "error", stream } });
    registerErrorHandling(server);
    registerFileRoutes(server, full, { uploadAccepts: async () => true });
    const bytes = minimalPdf(20_000);
    const intent = (
      await requestIntent(seller.cookie, "product-file", "big.pdf", bytes.length, "application/pdf")
    ).json();
    const before = await filesBefore();
    const response = await server.inject({
      method: "PUT",
      url: intent.url,
      headers: intent.headers,
      payload: bytes,
    });
    expect(response.statusCode).toBe(507);
    expect(response.json()).toEqual({
      code: "storage_full",
      message: "Storage is full right now. Please try again later.",
    });
    await expectNoNewFiles(before);
    // Explained to the seller, and still logged for the operator.
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: "request failed",
        err: expect.objectContaining({ code: "storage_full" }),
      }),
    );
    await server.close();
  });

  it("answers 507 when a cover's size cannot be written, leaving neither the images made before it nor a row", async () => {
    const png = await pngImage(2400, 1260);
    const intent = (
      await requestIntent(seller.cookie, "product-cover", "cover.png", png.length, "image/png")
    ).json();
    await putBytes(intent.url, intent.headers, png);
    const uploadKey = (await uploadRow(intent.uploadId))!.upload_key;
    const before = await filesBefore();
    const written: string[] = [];
    const sizeFails: LocalDiskStorage = {
      ...storage,
      write: (bucket, key, body, options) => {
        written.push(key);
        return key.endsWith("-960w.webp")
          ? Promise.reject(noSpaceError())
          : storage.write(bucket, key, body, options);
      },
    };
    await expect(
      completeUpload({ db: t.db, storage: sizeFails }, seller.userId, intent.uploadId),
    ).rejects.toMatchObject({
      code: "storage_full",
      status: 507,
      userMessage: "Storage is full right now. Please try again later.",
    });
    expect(written.map((key) => key.replace(/^.*-[0-9a-f]{16}/, ""))).toEqual([
      ".jpg",
      "-320w.webp",
      "-640w.webp",
      "-960w.webp",
    ]);
    expect(await uploadRow(intent.uploadId)).toBeUndefined();
    // Not the Open Graph image nor the sizes written before the failure, nor the uploaded bytes.
    await expectNoNewFiles(before);
    expect(await storage.stat("product-files", uploadKey)).toBeUndefined();
  });
});

describe("downloads through signed links", () => {
  let key: string;
  let pdf: Buffer;

  beforeAll(async () => {
    pdf = minimalPdf(500);
    const { completed } = await uploadFile("product-file", "Résumé final.pdf", pdf, "application/pdf");
    key = completed.json().key;
  });

  const downloadUrl = (expiresInSeconds = 60) =>
    storage.signedDownloadUrl("product-files", key, {
      fileName: "Résumé final.pdf",
      contentType: "application/pdf",
      expiresInSeconds,
    });

  it("serves the whole file with its type, length and original name", async () => {
    const response = await t.app.server.inject({ method: "GET", url: await downloadUrl() });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-length"]).toBe(String(pdf.length));
    expect(response.headers["accept-ranges"]).toBe("bytes");
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="R_sum_ final.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20final.pdf`,
    );
    expect(response.rawPayload.equals(pdf)).toBe(true);
  });

  it("answers byte ranges with 206 and the exact bytes, and unsatisfiable ones with 416", async () => {
    const url = await downloadUrl();
    const middle = await t.app.server.inject({ method: "GET", url, headers: { range: "bytes=10-19" } });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers["content-range"]).toBe(`bytes 10-19/${pdf.length}`);
    expect(middle.headers["content-length"]).toBe("10");
    expect(middle.rawPayload.equals(pdf.subarray(10, 20))).toBe(true);

    const suffix = await t.app.server.inject({ method: "GET", url, headers: { range: "bytes=-5" } });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(pdf.subarray(pdf.length - 5))).toBe(true);

    const open = await t.app.server.inject({
      method: "GET",
      url,
      headers: { range: `bytes=${pdf.length - 3}-` },
    });
    expect(open.headers["content-range"]).toBe(`bytes ${pdf.length - 3}-${pdf.length - 1}/${pdf.length}`);

    const beyond = await t.app.server.inject({
      method: "GET",
      url,
      headers: { range: `bytes=${pdf.length}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers["content-range"]).toBe(`bytes */${pdf.length}`);
  });

  it("refuses expired and tampered download links", async () => {
    const expired = await t.app.server.inject({ method: "GET", url: await downloadUrl(-1) });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe("link_expired");
    const url = await downloadUrl();
    const tampered = await t.app.server.inject({ method: "GET", url: `${url.slice(0, -2)}xx` });
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json().code).toBe("link_invalid");
    const uploadLinkAsDownload = await storage.signedUploadTarget("product-files", key, {
      sizeBytes: 10,
      contentType: "application/pdf",
      expiresInSeconds: 60,
    });
    const swapped = uploadLinkAsDownload.url.replace("/files/upload/", "/files/download/");
    expect((await t.app.server.inject({ method: "GET", url: swapped })).statusCode).toBe(403);
  });

  it("never serves private product files at a public address", async () => {
    const response = await t.app.server.inject({ method: "GET", url: `/files/public/product-covers/${key}` });
    expect(response.statusCode).toBe(404);
    const climbing = await t.app.server.inject({
      method: "GET",
      url: `/files/public/product-covers/..%2Fproduct-files%2F${encodeURIComponent(key)}`,
    });
    expect(climbing.statusCode).toBe(404);
  });
});

describe("covers and profile pictures", () => {
  it("refuses a small file that declares a huge image (decompression bomb), leaving nothing", async () => {
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: "#000" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(10 * 1024 * 1024);
    const { uploadId, completed } = await uploadFile("product-cover", "bomb.png", bomb, "image/png");
    expect(completed.statusCode).toBe(400);
    expect(completed.json().code).toBe("invalid_file");
    expect(await uploadRow(uploadId)).toBeUndefined();
  });

  it("renders a cover once into a 1200x630 Open Graph JPEG and WebP sizes 320 to 1280 wide, dropping the original", async () => {
    const { uploadId, completed } = await uploadFile(
      "product-cover",
      "cover.png",
      await pngImage(2400, 1260),
      "image/png",
    );
    expect(completed.statusCode, completed.body).toBe(200);
    const body = completed.json();
    expect(body.publicUrl).toMatch(/^\/files\/public\/product-covers\/.+\.jpg$/);

    const openGraph = await t.app.server.inject({ method: "GET", url: body.publicUrl });
    expect(openGraph.statusCode).toBe(200);
    expect(openGraph.headers["content-type"]).toBe("image/jpeg");
    expect(openGraph.headers["x-content-type-options"]).toBe("nosniff");
    expect(openGraph.headers["cache-control"]).toBe("public, max-age=3600");
    expect(await sharp(openGraph.rawPayload).metadata()).toMatchObject({
      format: "jpeg",
      width: 1200,
      height: 630,
    });

    const row = await uploadRow(uploadId);
    expect(row?.cover_variants?.map(({ width, height }) => [width, height])).toEqual([
      [320, 168],
      [640, 336],
      [960, 504],
      [1280, 672],
    ]);
    let variantBytes = 0;
    for (const variant of row?.cover_variants ?? []) {
      expect(variant.key).toMatch(
        new RegExp(`^${seller.userId}/\\d+-[0-9a-f]{16}-${variant.width}w\\.webp$`),
      );
      const image = await t.app.server.inject({ method: "GET", url: storage.publicUrl(variant.key) });
      expect(image.statusCode).toBe(200);
      expect(image.headers["content-type"]).toBe("image/webp");
      // Each size's key is new with its upload and written once: cached for good.
      expect(image.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(await sharp(image.rawPayload).metadata()).toMatchObject({
        format: "webp",
        width: variant.width,
        height: variant.height,
      });
      variantBytes += image.rawPayload.length;
    }
    // The thumbnail (library, downloads, dashboard) is the 640 size, not one more image.
    expect(row?.thumbnail_key).toBe(row?.cover_variants?.[1]?.key);
    expect(body.thumbnailUrl).toBe(storage.publicUrl(row?.cover_variants?.[1]?.key ?? ""));
    expect(await storage.stat("product-files", row?.upload_key ?? "")).toBeUndefined();
    expect(row?.source_key).toBeNull();
    expect(row?.size_bytes).toBe(openGraph.rawPayload.length + variantBytes);
  });

  it("never makes a size wider than the image: a narrow cover gets fewer sizes, a tiny one the smallest", async () => {
    const sizesOf = async (width: number, height: number) => {
      const { uploadId, completed } = await uploadFile(
        "product-cover",
        "cover.png",
        await pngImage(width, height),
        "image/png",
      );
      expect(completed.statusCode, completed.body).toBe(200);
      const row = await uploadRow(uploadId);
      for (const variant of row?.cover_variants ?? []) {
        expect(await storage.stat("product-covers", variant.key)).toBeDefined();
      }
      return { widths: row?.cover_variants?.map((variant) => variant.width), thumbnail: row?.thumbnail_key };
    };
    // 1000x525 keeps 1000 px across at the cover's ratio; 1100x500 keeps 952 (its height limits it).
    expect((await sizesOf(1000, 525)).widths).toEqual([320, 640, 960]);
    expect((await sizesOf(1100, 500)).widths).toEqual([320, 640]);
    const tiny = await sizesOf(200, 100);
    expect(tiny.widths).toEqual([320]);
    expect(tiny.thumbnail).toMatch(/-320w\.webp$/);
    // Nothing is written under the sizes not made: the stored sizes are exactly those recorded.
    const sizeFiles = (await storedFiles()).filter((file) => /-\d+w\.webp$/.test(file));
    const recorded = await t.db.selectFrom("uploads").select("cover_variants").execute();
    expect(sizeFiles.length).toBe(recorded.flatMap((row) => row.cover_variants ?? []).length);
  });

  it("never serves an SVG with a script as SVG: it is rasterised", async () => {
    const { completed } = await uploadFile("product-cover", "logo.svg", svgWithScript(), "image/svg+xml");
    expect(completed.statusCode, completed.body).toBe(200);
    const image = await t.app.server.inject({ method: "GET", url: completed.json().publicUrl });
    expect(image.headers["content-type"]).toBe("image/jpeg");
    expect(image.rawPayload.includes(Buffer.from("<script"))).toBe(false);
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({
      format: "jpeg",
      width: 1200,
      height: 630,
    });
  });

  it("serves any SVG that does reach the covers bucket sandboxed, with no script allowed", async () => {
    const key = `${seller.userId}/legacy.svg`;
    await storage.write("product-covers", key, Readable.from([svgWithScript()]));
    const response = await t.app.server.inject({ method: "GET", url: storage.publicUrl(key) });
    expect(response.headers["content-type"]).toBe("image/svg+xml");
    expect(response.headers["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("refuses a cover that is not really an image, leaving nothing", async () => {
    const { uploadId, completed } = await uploadFile("product-cover", "cover.png", minimalPdf(), "image/png");
    await expectRefusedWithNothingLeft(completed, uploadId, /not a real image/);
  });

  it("re-encodes a profile picture to a 400x400 WebP under a key of its own, never touching the live one", async () => {
    const first = await uploadFile("profile-picture", "me.png", await pngImage(300, 500), "image/png");
    expect(first.completed.statusCode, first.completed.body).toBe(200);
    expect(first.completed.json().key).toBe(`${seller.userId}/profile-${first.uploadId}.webp`);
    const second = await uploadFile("profile-picture", "me2.png", await pngImage(900, 200), "image/png");
    const body = second.completed.json();
    expect(body.publicUrl).toMatch(
      new RegExp(`/product-covers/${seller.userId}/profile-${second.uploadId}\\.webp$`),
    );
    const picture = await t.app.server.inject({ method: "GET", url: body.publicUrl });
    expect(await sharp(picture.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 400,
      height: 400,
    });
    // Dropping the second (unsaved) picture leaves the first one's file in place.
    const dropped = await t.request({
      method: "DELETE",
      url: `/api/uploads/${second.uploadId}`,
      cookie: seller.cookie,
    });
    expect(dropped.statusCode).toBe(204);
    const firstPicture = await t.app.server.inject({ method: "GET", url: first.completed.json().publicUrl });
    expect(firstPicture.statusCode).toBe(200);
  });

  it("checks the bytes where no upload link can reach: a PUT after completion cannot swap the file", async () => {
    const pdf = minimalPdf();
    const intent = (await requestIntent(seller.cookie, "product-file", "guide.pdf", pdf.length, "")).json();
    await putBytes(intent.url, intent.headers, pdf);
    const completed = await complete(seller.cookie, intent.uploadId);
    expect(completed.statusCode).toBe(200);
    const program = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(pdf.length - 2, 0x41)]);
    expect((await putBytes(intent.url, intent.headers, program)).statusCode).toBe(409);
    const row = await uploadRow(intent.uploadId);
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read("product-files", row!.storage_key!))
      chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
  });
});

describe("ownership and clean-up", () => {
  it("does not let another seller complete or delete an upload", async () => {
    const pdf = minimalPdf();
    const intent = (await requestIntent(seller.cookie, "product-file", "mine.pdf", pdf.length, "")).json();
    await putBytes(intent.url, intent.headers, pdf);
    const stolenComplete = await complete(otherSeller.cookie, intent.uploadId);
    expect(stolenComplete.statusCode).toBe(404);
    const stolenDelete = await t.request({
      method: "DELETE",
      url: `/api/uploads/${intent.uploadId}`,
      cookie: otherSeller.cookie,
    });
    expect(stolenDelete.statusCode).toBe(404);
    await deleteStoredFile({ db: t.db, storage }, otherSeller.userId, intent.uploadId);
    expect(await uploadRow(intent.uploadId)).toMatchObject({ status: "pending" });
    expect((await complete(seller.cookie, intent.uploadId)).statusCode).toBe(200);
  });

  it("deletes an unused upload with its file, but not one a product uses", async () => {
    const { uploadId, completed } = await uploadFile("product-file", "spare.pdf", minimalPdf());
    const { key } = completed.json();
    const deleted = await t.request({
      method: "DELETE",
      url: `/api/uploads/${uploadId}`,
      cookie: seller.cookie,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await uploadRow(uploadId)).toBeUndefined();
    expect(await storage.stat("product-files", key)).toBeUndefined();

    const used = await uploadFile("product-file", "sold.pdf", minimalPdf());
    await attachUpload(t.db, seller.userId, used.uploadId, "product-file");
    const refused = await t.request({
      method: "DELETE",
      url: `/api/uploads/${used.uploadId}`,
      cookie: seller.cookie,
    });
    expect(refused.statusCode).toBe(409);
    await expect(attachUpload(t.db, otherSeller.userId, used.uploadId, "product-file")).rejects.toMatchObject(
      {
        code: "upload_not_ready",
      },
    );
  });

  it("deleteStoredFile removes a cover's rendered images, every size included, with its row", async () => {
    const cover = await pngImage(1400, 735);
    const { uploadId, completed } = await uploadFile("product-cover", "c.png", cover, "image/png");
    const row = await uploadRow(uploadId);
    const sizes = (row?.cover_variants ?? []).map((variant) => variant.key);
    expect(sizes).toHaveLength(4);
    const before = await filesBefore();
    await deleteStoredFile({ db: t.db, storage }, seller.userId, uploadId);
    expect(await uploadRow(uploadId)).toBeUndefined();
    expect(await storage.stat("product-covers", completed.json().key)).toBeUndefined();
    for (const key of sizes) expect(await storage.stat("product-covers", key)).toBeUndefined();
    expect(before.size - (await storedFiles()).length).toBe(1 + sizes.length);
  });

  it("purges expired intents and the bytes they received, and nothing else", async () => {
    const janitorSeller = await readySeller(t);
    const pdf = minimalPdf();
    const abandoned = (
      await requestIntent(janitorSeller.cookie, "product-file", "gone.pdf", pdf.length, "")
    ).json();
    await putBytes(abandoned.url, abandoned.headers, pdf);
    const kept = await uploadFile("product-file", "kept.pdf", pdf, "", janitorSeller);
    const abandonedKey = (await uploadRow(abandoned.uploadId))?.upload_key ?? "";

    expect(await purgeExpiredUploads(t.db, storage, new Date())).toBe(0);
    const purged = await purgeExpiredUploads(t.db, storage, new Date(Date.now() + 2 * 60 * 60_000));
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await uploadRow(abandoned.uploadId)).toBeUndefined();
    expect(await storage.stat("product-files", abandonedKey)).toBeUndefined();
    expect(await uploadRow(kept.uploadId)).toMatchObject({ status: "completed" });
    expect(await storageUsedBytes(t.db, janitorSeller.userId)).toBe(pdf.length);

    // A checked file nothing used within a day was abandoned too (a closed form): it goes, bytes and all.
    const keptKey = (await uploadRow(kept.uploadId))?.storage_key ?? "";
    await purgeExpiredUploads(t.db, storage, new Date(Date.now() + UNUSED_UPLOAD_TTL_MS + 60_000));
    expect(await uploadRow(kept.uploadId)).toBeUndefined();
    expect(await storage.stat("product-files", keptKey)).toBeUndefined();
    expect(await storageUsedBytes(t.db, janitorSeller.userId)).toBe(0);
  });
});
