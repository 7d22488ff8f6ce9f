/**
 * "Export my store" on a large store (run by hand: `npx tsx bench/store-export.ts [--files 50] [--mb 100]`;
 * 50 files of 100 MB, 5 GB in all, by default). Needs about 3x the store's size free on the disk of
 * the system's temp folder for the moment it runs; everything it writes is deleted at the end.
 *
 * The parent writes the product files (random 1 MiB blocks, repeated: nothing compresses, the way real
 * product files don't) into a fresh data folder's local storage, then a child process (measured alone)
 * opens the real app on it (PGlite, local disk), records three products holding the files, and runs:
 *
 * 1. the baseline: every file streamed through Node into one file on the same disk (read + write, what
 *    any archive of these bytes must at least do), and
 * 2. the export: POST /api/store-export, then the job (app.jobs.runDue()) streams the ZIP into storage.
 *
 * Each reports its time and the child's peak RSS (sampled every 50 ms) above its RSS right before it;
 * the export's time is also given as a ratio of the baseline's, measured in the same run. The goal is an
 * RSS growth under 64 MB whatever the store's size. The archive is then opened with yauzl: its entries,
 * the manifest's counts and sizes, and one file's SHA-256 against the original's.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const MB = 1024 * 1024;
const FILES_PER_PRODUCT = 20;
const fileKey = (index: number) => `bench/file-${String(index).padStart(3, "0")}.bin`;

interface Phase {
  ms: number;
  rssBeforeMb: number;
  peakRssMb: number;
}
interface ChildReport {
  baseline: Phase;
  export: Phase & { archiveBytes: number; status: string };
  check: { entries: number; files: number; listed: number; sampleSha256Matches: boolean };
}

/** Runs `work` with the RSS sampled every 50 ms: its time, the RSS before it and the peak during it. */
async function measured(work: () => Promise<void>): Promise<Phase> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, rssBeforeMb: before / MB, peakRssMb: peak / MB };
}

/** Writes `count` files of `megabytes` each: one random MiB block repeated (written once, fast). */
async function writeStoreFiles(productFiles: string, count: number, megabytes: number): Promise<void> {
  await mkdir(path.join(productFiles, "bench"), { recursive: true });
  const block = randomBytes(MB);
  for (let index = 0; index < count; index++) {
    const out = createWriteStream(path.join(productFiles, fileKey(index)), { highWaterMark: MB });
    for (let written = 0; written < megabytes; written++) {
      if (!out.write(block)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
  }
}

/** Child: the app on the data folder, the store's rows, then the baseline and the export, measured. */
async function child(dataDir: string, count: number, megabytes: number): Promise<void> {
  const { createTestApp, signUp } = await import("../tests/api/support/test-app");
  const t = await createTestApp({ dataDir, jobsInBackground: false });
  t.app.server.log.level = "silent";
  const seller = await signUp(t);
  await recordProducts(t.db, seller.userId, count, megabytes);

  const files = path.join(dataDir, "storage", "product-files");
  const copy = path.join(dataDir, "baseline.bin");
  const baseline = await measured(async () => {
    const out = createWriteStream(copy, { highWaterMark: MB });
    for (let index = 0; index < count; index++) {
      for await (const chunk of createReadStream(path.join(files, fileKey(index)), { highWaterMark: MB })) {
        if (!out.write(chunk)) await once(out, "drain");
      }
    }
    out.end();
    await once(out, "finish");
  });
  await rm(copy);

  const exported = await measured(async () => {
    const started = await t.request({ method: "POST", url: "/api/store-export", cookie: seller.cookie });
    if (started.statusCode !== 202) throw new Error(`export refused: ${started.body}`);
    await t.app.jobs.runDue();
  });
  const row = await t.db
    .selectFrom("store_exports")
    .selectAll()
    .where("seller_id", "=", seller.userId)
    .executeTakeFirstOrThrow();
  const archive = path.join(dataDir, "storage", "store-exports", row.storage_key ?? "missing");
  const check = await checkArchive(archive, path.join(files, fileKey(0)));
  await t.close();
  const report: ChildReport = {
    baseline,
    export: { ...exported, archiveBytes: (await stat(archive)).size, status: row.status },
    check,
  };
  process.stdout.write(JSON.stringify(report));
}

/** Three products (20 files each at most, as the product rules allow) holding the written files. */
async function recordProducts(
  db: import("../src/server/db/database").Database,
  sellerId: string,
  count: number,
  megabytes: number,
): Promise<void> {
  const now = new Date();
  for (let first = 0; first < count; first += FILES_PER_PRODUCT) {
    const productId = `bench-product-${first}`;
    await db
      .insertInto("products")
      .values({
        id: productId,
        user_id: sellerId,
        title: `Pack ${first}`,
        price_cents: 1000,
        inventory_type: "unlimited",
      })
      .execute();
    for (let index = first; index < Math.min(count, first + FILES_PER_PRODUCT); index++) {
      const uploadId = randomUUID();
      await db
        .insertInto("uploads")
        .values({
          id: uploadId,
          seller_id: sellerId,
          purpose: "product-file",
          status: "attached",
          original_name: `file-${index}.bin`,
          declared_size_bytes: megabytes * MB,
          declared_type: "application/octet-stream",
          upload_key: `bench-upload-${uploadId}`,
          bucket: "product-files",
          storage_key: fileKey(index),
          size_bytes: megabytes * MB,
          content_type: "application/octet-stream",
          expires_at: now,
          completed_at: now,
        })
        .execute();
      await db
        .insertInto("product_files")
        .values({
          id: `bench-file-${index}`,
          product_id: productId,
          upload_id: uploadId,
          position: index - first,
          display_name: `Part ${index}.bin`,
        })
        .execute();
    }
  }
}

/** The archive as a reader sees it: its central directory, the manifest, and the first file's SHA-256. */
async function checkArchive(archive: string, firstFile: string): Promise<ChildReport["check"]> {
  const yauzl = (await import("yauzl")).default;
  const zip = await new Promise<import("yauzl").ZipFile>((resolve, reject) =>
    yauzl.open(archive, { lazyEntries: true, autoClose: false }, (error, opened) =>
      error || !opened ? reject(error) : resolve(opened),
    ),
  );
  const entries: import("yauzl").Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: import("yauzl").Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  const read = (entry: import("yauzl").Entry) =>
    new Promise<import("node:stream").Readable>((resolve, reject) =>
      zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(error) : resolve(stream))),
    );
  const sha256 = async (stream: import("node:stream").Readable) => {
    const hash = createHash("sha256");
    for await (const chunk of stream) hash.update(chunk as Buffer);
    return hash.digest("hex");
  };
  const manifestEntry = entries.find((entry) => entry.fileName === "manifest.json")!;
  let manifestText = "";
  for await (const chunk of await read(manifestEntry)) manifestText += chunk;
  const manifest = JSON.parse(manifestText) as { files: { path: string; sha256: string }[] };
  const first = entries.find((entry) => entry.fileName.startsWith("files/bench-product-0/bench-file-0/"))!;
  const archived = await sha256(await read(first));
  const original = await sha256(createReadStream(firstFile));
  const listed = manifest.files.find((file) => file.path === first.fileName)?.sha256;
  zip.close();
  return {
    entries: entries.length,
    files: entries.filter((entry) => entry.fileName.startsWith("files/")).length,
    listed: manifest.files.length,
    sampleSha256Matches: archived === original && listed === original,
  };
}

async function runChild(dataDir: string, count: number, megabytes: number): Promise<ChildReport> {
  const proc = spawn(
    process.execPath,
    [
      ...process.execArgv,
      "--expose-gc",
      process.argv[1]!,
      "--child",
      dataDir,
      String(count),
      String(megabytes),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let stdout = "";
  proc.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const [code] = (await once(proc, "exit")) as [number];
  if (code !== 0) throw new Error(`child exited with ${code}`);
  return JSON.parse(stdout.slice(stdout.indexOf("{"))) as ChildReport;
}

const line = (label: string, phase: Phase, extra = "") =>
  `${label.padEnd(9)} ${(phase.ms / 1000).toFixed(1).padStart(6)} s  RSS ${phase.rssBeforeMb.toFixed(0)} → ${phase.peakRssMb.toFixed(0)} MB (+${(phase.peakRssMb - phase.rssBeforeMb).toFixed(0)} MB)${extra}`;

async function main(): Promise<void> {
  const count = option("files", 50);
  const megabytes = option("mb", 100);
  const dataDir = await mkdtemp(path.join(tmpdir(), "bench-store-export-"));
  try {
    const totalMb = count * megabytes;
    console.log(
      `store: ${count} files of ${megabytes} MB (${(totalMb / 1024).toFixed(2)} GB); writing them...`,
    );
    await writeStoreFiles(path.join(dataDir, "storage", "product-files"), count, megabytes);
    const report = await runChild(dataDir, count, megabytes);
    const rate = (phase: Phase) => `${(totalMb / (phase.ms / 1000)).toFixed(0)} MB/s`;
    console.log(line("baseline", report.baseline, `  ${rate(report.baseline)} (stream every file into one)`));
    console.log(
      line(
        "export",
        report.export,
        `  ${rate(report.export)}, ${(report.export.ms / report.baseline.ms).toFixed(2)}x the baseline; archive ${(report.export.archiveBytes / MB).toFixed(0)} MB (${report.export.status})`,
      ),
    );
    console.log(
      `archive: ${report.check.entries} entries (${report.check.files} files), ${report.check.listed} in the manifest, first file's SHA-256 matches: ${report.check.sampleSha256Matches}`,
    );
    const growth = report.export.peakRssMb - report.export.rssBeforeMb;
    console.log(`RSS growth ${growth.toFixed(0)} MB: ${growth < 64 ? "under" : "OVER"} the 64 MB goal`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (args[0] === "--child") await child(args[1]!, Number(args[2]), Number(args[3]));
else await main();
