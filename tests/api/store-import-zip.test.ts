import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductZipResult, StoreImport } from "../../src/contracts/store-import";
import { purgeExpiredUploads } from "../../src/server/features/uploads/purge-expired-uploads";
import {
  eicar,
  minimalPdf,
  pngImage,
  windowsProgram,
  zipArchive,
} from "../../src/server/features/uploads/test-fixtures";
import { readySeller, upload } from "./support/sellers";
import { createTestApp, type TestApp } from "./support/test-app";

/**
 * Issue 28: a product's files as one ZIP, on its row or one ZIP for all products (a folder each), read
 * entry by entry into the same checked product-file uploads a single file becomes; every refusal keeps
 * nothing (docs/store-import.md, "Files per product").
 */

const FIXTURES = path.resolve(__dirname, "../fixtures/import-formats");

let t: TestApp;
let seller: Awaited<ReturnType<typeof readySeller>>;
let importId: string;

beforeAll(async () => {
  t = await createTestApp({ listen: true, jobsInBackground: false });
  seller = await readySeller(t);
  importId = await checkedGumroadImport(seller.cookie);
});
afterAll(async () => {
  await t.close();
});

/** A Gumroad import of the sample sales CSV, dry run done: Pixel Icons Pack, Lightroom Presets, Pro Membership. */
async function checkedGumroadImport(cookie: string): Promise<string> {
  const created = await t.request({
    method: "POST",
    url: "/api/store-imports",
    cookie,
    body: { platform: "gumroad" },
  });
  const id = (created.json() as StoreImport).id;
  const added = await t.app.server.inject({
    method: "PUT",
    url: `/api/store-imports/${id}/files?name=sales.csv`,
    headers: { cookie, "content-type": "text/csv" },
    payload: await readFile(path.join(FIXTURES, "gumroad", "sales.csv")),
  });
  expect(added.statusCode, added.body).toBe(201);
  await t.request({ method: "POST", url: `/api/store-imports/${id}/check`, cookie });
  await t.app.jobs.runDue();
  const checked = await t.request({ method: "GET", url: `/api/store-imports/${id}`, cookie });
  expect(checked.json().status).toBe("checked");
  return id;
}

/** A ZIP as a creator's tool makes it (yazl), folders included as their own entries when named with a slash. */
async function yazlZip(entries: { name: string; data?: Buffer; compress?: boolean }[]): Promise<Buffer> {
  const yazl = (await import("yazl")).default;
  const zip = new yazl.ZipFile();
  for (const { name, data, compress = true } of entries) {
    if (name.endsWith("/")) zip.addEmptyDirectory(name);
    else zip.addBuffer(data ?? Buffer.alloc(0), name, { compress });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A PDF whose bytes say which file it is (so a download can be told apart). */
const pdf = (label: string) => Buffer.concat([minimalPdf(64), Buffer.from(`% ${label}\n`)]);

const productZipUrl = (externalId: string, name: string, id = importId) =>
  `/api/store-imports/${id}/products/${encodeURIComponent(externalId)}/zip?name=${encodeURIComponent(name)}`;
const storeZipUrl = (name: string, id = importId) =>
  `/api/store-imports/${id}/products-zip?name=${encodeURIComponent(name)}`;
const putZip = (url: string, bytes: Buffer, cookie = seller.cookie) =>
  t.app.server.inject({
    method: "PUT",
    url,
    headers: { cookie, "content-type": "application/zip" },
    payload: bytes,
  });

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** What a refusal must leave as it was: the seller's uploads, the attachments, every object on disk, the sweeps. */
async function state() {
  return {
    uploads: (
      await t.db.selectFrom("uploads").select("id").where("seller_id", "=", seller.userId).execute()
    ).map((row) => row.id),
    attached: await t.db
      .selectFrom("store_import_product_files")
      .select(["product_external_id", "upload_id", "position"])
      .where("import_id", "=", importId)
      .orderBy("product_external_id")
      .orderBy("position")
      .execute(),
    objects: await filesUnder(t.storageRoot),
    sweeps: (await t.db.selectFrom("upload_key_sweeps").select("upload_key").execute()).map(
      (row) => row.upload_key,
    ),
  };
}

const importView = async (id = importId) =>
  (
    await t.request({ method: "GET", url: `/api/store-imports/${id}`, cookie: seller.cookie })
  ).json() as StoreImport;
const filesOf = (view: StoreImport, externalId: string) =>
  view.report!.products.find((product) => product.externalId === externalId)!.files;

describe("a ZIP refused keeps nothing", () => {
  /** Each case: what the creator uploads, where, the code and the words (naming the ZIP and the entry). */
  const refusals: {
    name: string;
    zip: () => Buffer | Promise<Buffer>;
    url?: (name: string) => string;
    code: string;
    message: RegExp;
  }[] = [
    {
      name: "not a ZIP",
      zip: () => minimalPdf(),
      code: "not_a_zip",
      message: /^files\.zip is not a ZIP file/,
    },
    {
      name: "a ZIP cut short (no central directory)",
      zip: async () => (await yazlZip([{ name: "a.pdf", data: pdf("a") }])).subarray(0, 60),
      code: "zip_damaged",
      message: /^files\.zip is a ZIP we can't read/,
    },
    { name: "an empty ZIP", zip: () => yazlZip([]), code: "zip_empty", message: /^files\.zip is empty/ },
    {
      name: "only folders and system files",
      zip: () =>
        yazlZip([
          { name: "Pixel Icons/" },
          { name: "__MACOSX/._a.pdf", data: Buffer.from("resource fork") },
          { name: "Pixel Icons/.DS_Store", data: Buffer.from("finder") },
          { name: "Thumbs.db", data: Buffer.from("thumbs") },
          { name: ".hidden.pdf", data: pdf("hidden") },
        ]),
      code: "zip_no_files",
      message: /^files\.zip holds no files to attach/,
    },
    {
      name: "a zip-slip entry (..)",
      zip: () =>
        zipArchive([
          { name: "a.pdf", data: pdf("a") },
          { name: "../../evil.pdf", data: pdf("evil") },
        ]),
      code: "zip_unsafe_path",
      message: /^files\.zip is refused: "\.\.\/\.\.\/evil\.pdf" points outside the ZIP/,
    },
    {
      name: "an absolute path",
      zip: () => zipArchive([{ name: "/etc/evil.pdf", data: pdf("evil") }]),
      code: "zip_unsafe_path",
      message: /"\/etc\/evil\.pdf" points outside the ZIP/,
    },
    {
      name: "a Windows absolute path",
      zip: () => zipArchive([{ name: "C:\\Users\\evil.pdf", data: pdf("evil") }]),
      code: "zip_unsafe_path",
      message: /"C:\/Users\/evil\.pdf" points outside the ZIP/,
    },
    {
      name: "a password-protected entry",
      zip: () => zipArchive([{ name: "locked.pdf", data: pdf("locked"), method: 0, encrypted: true }]),
      code: "zip_encrypted",
      message: /^files\.zip is refused: "locked\.pdf" is password-protected/,
    },
    {
      name: "an entry that says it is over 250 MB",
      zip: () => zipArchive([{ name: "huge.pdf", data: pdf("huge"), declaredSize: 251 * 1024 * 1024 }]),
      code: "zip_entry_too_large",
      message: /^files\.zip is refused: "huge\.pdf" is larger than 250 MB/,
    },
    {
      name: "a ZIP bomb: an entry that unpacks past the size it declares",
      zip: () =>
        zipArchive([
          { name: "a.pdf", data: pdf("a") },
          // 8 MB of one byte deflates to a few KB, and claims to be 200 bytes.
          {
            name: "b.pdf",
            data: Buffer.concat([minimalPdf(), Buffer.alloc(8 * 1024 * 1024, 0x20)]),
            declaredSize: 200,
          },
        ]),
      code: "zip_size_mismatch",
      message: /^files\.zip is refused: "b\.pdf" unpacks to a different size than the ZIP says/,
    },
    {
      name: "an entry that unpacks to less than it declares",
      zip: () => zipArchive([{ name: "short.pdf", data: pdf("short"), declaredSize: 5000 }]),
      code: "zip_size_mismatch",
      message: /"short\.pdf" unpacks to a different size/,
    },
    {
      name: "an entry whose data cannot be inflated",
      zip: () =>
        zipArchive([{ name: "garbled.pdf", data: pdf("garbled"), method: 8 }]).fill(
          0xff,
          30 + 11,
          30 + 11 + 8,
        ),
      code: "zip_damaged",
      message: /^files\.zip is damaged: "garbled\.pdf" can't be unpacked/,
    },
    {
      name: "too many entries",
      zip: () =>
        zipArchive(
          Array.from({ length: 501 }, (_, index) => ({ name: `p${index}.pdf`, data: pdf(String(index)) })),
        ),
      code: "zip_too_many_entries",
      message: /^files\.zip holds more than 500 files and folders/,
    },
    {
      name: "a file no product may have (its format)",
      zip: () =>
        yazlZip([
          { name: "a.pdf", data: pdf("a") },
          { name: "docs/readme.txt", data: Buffer.from("read me") },
        ]),
      code: "invalid_file",
      message: /^files\.zip is refused: "docs\/readme\.txt": Invalid files\. Allowed formats/,
    },
    {
      name: "a program named like a PDF (its content is checked, as any upload's)",
      zip: () => yazlZip([{ name: "tools/setup.pdf", data: windowsProgram() }]),
      code: "invalid_file",
      message: /^files\.zip is refused: "tools\/setup\.pdf": This file is .+\. Programs can't be sold here\./,
    },
    {
      name: "the virus test file",
      zip: () =>
        yazlZip([
          { name: "a.pdf", data: pdf("a") },
          { name: "b.pdf", data: eicar() },
        ]),
      code: "invalid_file",
      message: /^files\.zip is refused: "b\.pdf": This file contains a virus test signature \(EICAR\)/,
    },
    {
      name: "an empty file",
      zip: () => yazlZip([{ name: "empty.pdf", data: Buffer.alloc(0) }]),
      code: "invalid_file",
      message: /"empty\.pdf": This file is empty/,
    },
    {
      name: "a file whose content is not what its name says, after others were stored",
      zip: async () =>
        yazlZip([
          { name: "1-first.pdf", data: pdf("first") },
          { name: "2-second.pdf", data: pdf("second") },
          { name: "3-cover.pdf", data: await pngImage(40, 20) },
        ]),
      code: "invalid_file",
      message: /^files\.zip is refused: "3-cover\.pdf": This file is not a real PDF/,
    },
    {
      name: "more files than a product may have",
      zip: () =>
        yazlZip(
          Array.from({ length: 21 }, (_, index) => ({
            name: `part-${index + 1}.pdf`,
            data: pdf(`${index}`),
          })),
        ),
      code: "too_many_product_files",
      message: /^files\.zip would give Pixel Icons Pack 21 files; a product has at most 20/,
    },
    {
      name: "a ZIP for all products with no product's folder",
      zip: () =>
        yazlZip([
          { name: "Someone else's product/a.pdf", data: pdf("a") },
          { name: "loose.pdf", data: pdf("loose") },
        ]),
      url: storeZipUrl,
      code: "zip_no_product_folders",
      message:
        /^files\.zip has no folder named after a product of this import \(its folders: "Someone else's product"\)/,
    },
  ];

  it.each(refusals)("$name", async ({ zip, url = (name) => productZipUrl("pxicn", name), code, message }) => {
    const before = await state();
    const refused = await putZip(url("files.zip"), await zip());
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().code).toBe(code);
    expect(refused.json().message).toMatch(message);
    expect(await state()).toEqual(before);
  });

  it("another seller's import, a product not in the import, an import already running: refused, nothing kept", async () => {
    const other = await readySeller(t);
    const before = await state();
    const zip = await yazlZip([{ name: "a.pdf", data: pdf("a") }]);
    expect((await putZip(productZipUrl("pxicn", "a.zip"), zip, other.cookie)).statusCode).toBe(404);
    expect((await putZip(storeZipUrl("a.zip"), zip, other.cookie)).statusCode).toBe(404);
    expect((await putZip(productZipUrl("nope", "a.zip"), zip)).statusCode).toBe(404);
    const running = await checkedGumroadImport(seller.cookie);
    await t.db.updateTable("store_imports").set({ status: "importing" }).where("id", "=", running).execute();
    const locked = await putZip(productZipUrl("pxicn", "a.zip", running), zip);
    expect(locked.statusCode).toBe(409);
    await t.db.deleteFrom("store_imports").where("id", "=", running).execute();
    const after = await state();
    // The second import's export file is its own; nothing of a ZIP stayed.
    expect(after.uploads).toEqual(before.uploads);
    expect(after.objects.filter((key) => !key.includes(running))).toEqual(before.objects);
  });
});

describe("a ZIP of one product's files", () => {
  it("attaches every file (folders flattened, system files left out), after the files already attached", async () => {
    const single = await upload(t, seller.cookie, "product-file", "readme-first.pdf", pdf("readme-first"));
    const attachedOne = await t.request({
      method: "PUT",
      url: `/api/store-imports/${importId}/products/pxicn/files`,
      cookie: seller.cookie,
      body: { uploadIds: [single] },
    });
    expect(attachedOne.statusCode, attachedOne.body).toBe(200);

    const zip = await yazlZip([
      { name: "Pixel Icons/" },
      { name: "Pixel Icons/icons-24px.pdf", data: pdf("icons-24px") },
      { name: "Pixel Icons/large/icons-48px.pdf", data: pdf("icons-48px"), compress: false },
      { name: "Pixel Icons/.DS_Store", data: Buffer.from("finder") },
      { name: "__MACOSX/Pixel Icons/._icons-24px.pdf", data: Buffer.from("fork") },
      { name: "Pixel Icons/bundle.zip", data: await yazlZip([{ name: "inner.pdf", data: pdf("inner") }]) },
    ]);
    const response = await putZip(productZipUrl("pxicn", "Pixel Icons.zip"), zip);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as ProductZipResult;
    expect(result.systemFiles).toBe(2);
    expect(result.skippedFolders).toEqual([]);
    expect(result.looseFiles).toEqual([]);
    expect(result.attached).toHaveLength(1);
    expect(result.attached[0]!.files.map((file) => [file.name, file.sizeBytes])).toEqual([
      ["bundle.zip", expect.any(Number)],
      ["icons-24px.pdf", pdf("icons-24px").length],
      ["icons-48px.pdf", pdf("icons-48px").length],
    ]);
    // The answer carries the import as its page shows it: the product's whole list, in order.
    expect(filesOf(result.import, "pxicn").map((file) => file.name)).toEqual([
      "readme-first.pdf",
      "bundle.zip",
      "icons-24px.pdf",
      "icons-48px.pdf",
    ]);
    expect(result.import.report!.products.find((product) => product.externalId === "pxicn")!.status).toBe(
      "new",
    );

    // Each is the upload a single file becomes: checked, this seller's, its bytes in storage.
    const uploads = await t.db
      .selectFrom("uploads")
      .selectAll()
      .where(
        "id",
        "in",
        result.attached[0]!.files.map((file) => file.uploadId),
      )
      .execute();
    expect(uploads).toHaveLength(3);
    for (const row of uploads) {
      expect(row).toMatchObject({ seller_id: seller.userId, purpose: "product-file", status: "completed" });
      expect(row.content_type).toMatch(/^application\/(pdf|zip)$/);
      const stored = await readFile(path.join(t.storageRoot, "product-files", row.storage_key!));
      expect(stored.length).toBe(row.size_bytes);
    }
    // The ZIP itself is gone, and so is its sweep.
    expect((await state()).objects.filter((key) => key.includes("/zip-"))).toEqual([]);
  });
});

describe("one ZIP for all products", () => {
  it("maps each top-level folder to the product of that name or id; other folders and loose files are listed, not kept", async () => {
    const before = await state();
    const zip = await yazlZip([
      { name: "lightroom presets!/presets-vol1.pdf", data: pdf("presets-vol1") },
      { name: "lightroom presets!/extras/presets-bonus.pdf", data: pdf("presets-bonus") },
      { name: "PXICN/icons-svg.pdf", data: pdf("icons-svg") },
      { name: "Pro Membership/welcome.pdf", data: pdf("welcome") },
      { name: "Old Course/lesson.pdf", data: pdf("lesson") },
      { name: "read me.pdf", data: pdf("read me") },
      { name: "__MACOSX/PXICN/._icons-svg.pdf", data: Buffer.from("fork") },
    ]);
    const response = await putZip(storeZipUrl("store.zip"), zip);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as ProductZipResult;
    expect(
      Object.fromEntries(
        result.attached.map((product) => [product.title, product.files.map((file) => file.name)]),
      ),
    ).toEqual({
      "Lightroom Presets": ["presets-bonus.pdf", "presets-vol1.pdf"],
      "Pixel Icons Pack": ["icons-svg.pdf"],
      "Pro Membership": ["welcome.pdf"],
    });
    expect(result.skippedFolders).toEqual([
      { folder: "Old Course", reason: "No product of this import has this name or id." },
    ]);
    expect(result.looseFiles).toEqual(["read me.pdf"]);
    expect(result.systemFiles).toBe(1);
    expect(filesOf(result.import, "pxicn").at(-1)!.name).toBe("icons-svg.pdf");
    expect(filesOf(result.import, "lrpst").map((file) => file.name)).toEqual([
      "presets-bonus.pdf",
      "presets-vol1.pdf",
    ]);
    // Exactly the four files attached became uploads: nothing of the left-out folder or the loose file.
    const after = await state();
    const added = after.uploads.filter((id) => !before.uploads.includes(id));
    expect(added.sort()).toEqual(
      result.attached.flatMap((product) => product.files.map((file) => file.uploadId)).sort(),
    );
    expect(after.objects.length - before.objects.length).toBe(4);
  });

  it("the run creates the products with the ZIPs' files, and a buyer of an imported order downloads their bytes", async () => {
    // Days later the janitor runs: the files attached to an import not yet run are in use, kept.
    const attached = await t.db
      .selectFrom("store_import_product_files")
      .select("upload_id")
      .where("import_id", "=", importId)
      .execute();
    expect(attached.length).toBeGreaterThan(0);
    await purgeExpiredUploads(t.db, t.storage, new Date(t.clock.now().getTime() + 3 * 24 * 60 * 60 * 1000));
    const kept = await t.db
      .selectFrom("uploads")
      .select("id")
      .where(
        "id",
        "in",
        attached.map((row) => row.upload_id),
      )
      .execute();
    expect(kept).toHaveLength(attached.length);

    const ran = await t.request({
      method: "POST",
      url: `/api/store-imports/${importId}/run`,
      cookie: seller.cookie,
      body: { notifyBuyers: true },
    });
    expect(ran.statusCode, ran.body).toBe(202);
    await t.app.jobs.runDue();
    const done = await importView();
    expect(done.status, done.error ?? "").toBe("imported");
    expect(done.result).toMatchObject({ products: 3 });
    await t.app.jobs.runDue();

    // buyer1 bought Pixel Icons Pack: their library (from the moved email) gives each file's bytes.
    const [email] = await t.db
      .selectFrom("outbox_emails")
      .selectAll()
      .where("to_address", "=", "buyer1@example.com")
      .execute();
    const libraryToken = new URL(
      email!.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0],
    ).searchParams.get("token")!;
    const library = await t.request({
      method: "GET",
      url: `/api/library?token=${encodeURIComponent(libraryToken)}`,
    });
    expect(library.statusCode, library.body).toBe(200);
    const purchase = library
      .json()
      .purchases.find((entry: { productTitle: string }) => entry.productTitle === "Pixel Icons Pack");
    const token = (purchase.downloadPath as string).replace("/download/", "");
    const page = await t.request({ method: "GET", url: `/api/downloads/${token}` });
    const files = page.json().purchase.files as { id: string; name: string }[];
    expect(files.map((file) => file.name)).toEqual([
      "readme-first.pdf",
      "bundle.zip",
      "icons-24px.pdf",
      "icons-48px.pdf",
      "icons-svg.pdf",
    ]);
    for (const label of ["icons-24px", "icons-48px", "icons-svg"]) {
      const file = files.find((candidate) => candidate.name === `${label}.pdf`)!;
      const started = await t.request({
        method: "POST",
        url: `/api/downloads/${token}`,
        body: { fileId: file.id },
      });
      expect(started.statusCode, started.body).toBe(200);
      const bytes = await t.app.server.inject({ method: "GET", url: started.json().url });
      expect(bytes.statusCode).toBe(200);
      expect(bytes.rawPayload.equals(pdf(label))).toBe(true);
    }
  });
});
