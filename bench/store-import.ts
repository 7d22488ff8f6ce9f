/**
 * A 100,000-row Gumroad sales CSV through the store import (run by hand: `npx tsx bench/store-import.ts`,
 * `--postgres` for PostgreSQL, `--rows N` for another size).
 *
 * Measures, in one process on the real app (app.inject, the job queue run by hand):
 * 1. baseline: the same file parsed by csv-parse alone (every row read, nothing done with it);
 * 2. the dry run (the check job): time, and as a ratio to the baseline;
 * 3. the run (products, then every order with its customer roll-up and key, 200 a transaction);
 * and the process's peak RSS above its level before each step (sampled every 20 ms), which must not
 * grow with the file: the readers stream, and the run holds one batch at a time.
 */

import { once } from "node:events";
import { createReadStream, createWriteStream, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse";

const argRows = process.argv.indexOf("--rows");
const ROWS = argRows > 0 ? Number(process.argv[argRows + 1]) : 100_000;
const PRODUCTS = 10;
const usePostgres = process.argv.includes("--postgres");
if (usePostgres) process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
else delete process.env.TEST_DATABASE_URL;

const { createTestApp } = await import("../tests/api/support/test-app");
const { readySeller, upload } = await import("../tests/api/support/sellers");
const { minimalPdf } = await import("../src/server/features/uploads/test-fixtures");

/** Peak RSS above the level when it starts, sampled while `work` runs. */
async function measured<T>(label: string, work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const start = performance.now();
  const value = await work();
  const seconds = (performance.now() - start) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `${label.padEnd(34)} ${seconds.toFixed(2).padStart(7)} s   RSS ${(before / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MB (+${((peak - before) / 2 ** 20).toFixed(1)} MB)`,
  );
  return { value, seconds };
}

/** The sample's header, and ROWS purchases of PRODUCTS products over a year, some refunded, some with keys. */
async function writeSalesCsv(file: string): Promise<void> {
  const sample = readFileSync(
    path.resolve(import.meta.dirname, "../tests/fixtures/import-formats/gumroad/sales.csv"),
    "utf8",
  );
  const header = sample.split("\n")[0]!.trim().split(",");
  const out = createWriteStream(file);
  out.write(`${header.join(",")}\n`);
  const column = new Map(header.map((name, index) => [name, index]));
  for (let row = 0; row < ROWS; row++) {
    const cells = new Array<string>(header.length).fill("");
    const product = row % PRODUCTS;
    const day = new Date(Date.UTC(2025, 0, 1) + (row % 365) * 86_400_000 + (row % 86_400) * 1000);
    const set = (name: string, value: string) => {
      const index = column.get(name);
      if (index !== undefined) cells[index] = value;
    };
    set("Purchase ID", `bench${row.toString(36).padStart(8, "0")}==`);
    set("Item Name", `Product ${product}`);
    set("Buyer Name", `Buyer ${row}`);
    set("Purchase Email", `buyer${row % 40_000}@example.com`);
    set("Buyer Email", `buyer${row % 40_000}@example.com`);
    set("Do not contact?", row % 50 === 0 ? "1" : "0");
    set("Purchase Date", day.toISOString().slice(0, 10));
    set("Purchase Time (UTC timezone)", `${day.toISOString().slice(0, 19).replace("T", " ")} +0000`);
    const price = `${10 + product}.0`;
    for (const name of ["Subtotal ($)", "Sale Price ($)", "Item Price ($)", "Net Total ($)"])
      set(name, price);
    const refunded = row % 97 === 0;
    set("Refunded?", refunded ? "1" : "0");
    set("Fully Refunded?", refunded ? "1" : "0");
    set("Partial Refund ($)", "0.0");
    set("Product ID", `prod${product}`);
    set("Quantity", "1");
    if (product < 3)
      set("License Key", `${row.toString(16).toUpperCase().padStart(8, "0")}-AAAAAAAA-BBBBBBBB-CCCCCCCC`);
    out.write(`${cells.join(",")}\n`);
  }
  out.end();
  await once(out, "finish");
}

const folder = await mkdtemp(path.join(tmpdir(), "flatfee-bench-import-"));
const csvFile = path.join(folder, "sales.csv");
try {
  await writeSalesCsv(csvFile);
  const t = await createTestApp({ listen: true, jobsInBackground: false });
  t.app.server.log.level = "silent";
  const seller = await readySeller(t);
  console.log(`database: ${usePostgres ? "PostgreSQL" : "PGlite"}; ${ROWS} rows, ${PRODUCTS} products`);

  const baseline = await measured("baseline: csv-parse alone", async () => {
    let rows = 0;
    for await (const _ of createReadStream(csvFile).pipe(parse({ columns: true }))) rows++;
    return rows;
  });

  const created = await t.request({
    method: "POST",
    url: "/api/store-imports",
    cookie: seller.cookie,
    body: { platform: "gumroad" },
  });
  const importId = created.json().id as string;
  await measured("upload the CSV", async () => {
    const response = await t.app.server.inject({
      method: "PUT",
      url: `/api/store-imports/${importId}/files?name=sales.csv`,
      headers: { cookie: seller.cookie, "content-type": "text/csv" },
      payload: createReadStream(csvFile),
    });
    if (response.statusCode !== 201) throw new Error(response.body);
  });
  const check = await measured("dry run", async () => {
    await t.request({ method: "POST", url: `/api/store-imports/${importId}/check`, cookie: seller.cookie });
    await t.app.jobs.runDue();
  });
  for (let product = 0; product < PRODUCTS; product++) {
    const uploadId = await upload(
      t,
      seller.cookie,
      "product-file",
      `product-${product}.pdf`,
      minimalPdf(100 + product),
    );
    await t.request({
      method: "PUT",
      url: `/api/store-imports/${importId}/products/prod${product}/files`,
      cookie: seller.cookie,
      body: { uploadIds: [uploadId] },
    });
  }
  const runStep = await measured("run", async () => {
    await t.request({
      method: "POST",
      url: `/api/store-imports/${importId}/run`,
      cookie: seller.cookie,
      body: { notifyBuyers: false },
    });
    await t.app.jobs.runDue();
  });
  const done = (
    await t.request({ method: "GET", url: `/api/store-imports/${importId}`, cookie: seller.cookie })
  ).json();
  console.log(`status ${done.status}; result ${JSON.stringify(done.result)}`);
  console.log(
    `ratios to the baseline: dry run ${(check.seconds / baseline.seconds).toFixed(1)}x, run ${(runStep.seconds / baseline.seconds).toFixed(1)}x; ${(ROWS / runStep.seconds).toFixed(0)} rows/s imported`,
  );
  await t.close();
} finally {
  await rm(folder, { recursive: true, force: true });
}
