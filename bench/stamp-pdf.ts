/**
 * Stamping PDFs (run by hand: `npx tsx bench/stamp-pdf.ts [--mb 50] [--pages 500] [--pdf-lib]`, or
 * `--shared-contents [--pages 300] [--refs 50000]`).
 *
 * Writes a PDF of the given size and page count (each page: a line of text and an incompressible
 * image, so the bytes are real page content), then stamps it in a fresh child process and reports
 * the time and the child's peak RSS (sampled every 5 ms) against its RSS before the work. The
 * stamped file is checked: its page count (by the stamper's own count and, with --pdf-lib, by pdf-lib)
 * and the stamp line in its bytes.
 *
 * `--pdf-lib` also stamps it the other way considered: pdf-lib loads the whole document, draws the
 * line on every page and saves a new file (the reason the product stamps with an incremental update).
 *
 * `--shared-contents` stamps a small file made to amplify instead: every page's /Contents is the same
 * array of `--refs` references (test-pdfs.ts `sharedContentsPdf`), and reports the output's size as a
 * ratio of the input's.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const LINE = "Licensed to bench-buyer@example.com · order ord_bench0001";

/** Streams a classic PDF of about `megabytes` with `pages` pages to `file`. */
async function writeBenchPdf(file: string, megabytes: number, pages: number): Promise<void> {
  const out = createWriteStream(file);
  let offset = 0;
  const offsets: number[] = [];
  const write = async (data: string | Buffer) => {
    const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
    offset += bytes.length;
    if (!out.write(bytes)) await once(out, "drain");
  };
  const object = async (num: number, body: string, stream?: Buffer) => {
    offsets[num] = offset;
    await write(`${num} 0 obj\n${body}\n`);
    if (stream) {
      await write("stream\n");
      await write(stream);
      await write("\nendstream\n");
    }
    await write("endobj\n");
  };
  // Objects: 1 catalog, 2 pages, 3 font, then per page: page, content, image.
  const imageBytes = Math.max(1024, Math.floor((megabytes * 1024 * 1024) / pages) - 600);
  const side = Math.floor(Math.sqrt(imageBytes));
  await write("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
  await object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i * 3} 0 R`).join(" ");
  await object(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  await object(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>");
  for (let i = 0; i < pages; i++) {
    const num = 4 + i * 3;
    await object(
      num,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${num + 1} 0 R /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 ${num + 2} 0 R >> >> >>`,
    );
    const content = Buffer.from(
      `q 400 0 0 400 97 300 cm /Im1 Do Q BT /F1 24 Tf 72 760 Td (Page ${i + 1}) Tj ET`,
    );
    await object(num + 1, `<< /Length ${content.length} >>`, content);
    const pixels = randomBytes(side * side);
    await object(
      num + 2,
      `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>`,
      pixels,
    );
  }
  const xref = offset;
  const size = 4 + pages * 3;
  let table = `xref\n0 ${size}\n0000000000 65535 f\r\n`;
  for (let num = 1; num < size; num++) table += `${String(offsets[num]).padStart(10, "0")} 00000 n\r\n`;
  await write(table);
  await write(`trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  out.end();
  await once(out, "finish");
}

interface ChildReport {
  ms: number;
  baselineRssMb: number;
  peakRssMb: number;
  pages: number;
  refused?: string;
}

/** The work of one approach, in this (child) process, with its RSS sampled throughout. */
async function child(approach: string, input: string, output: string): Promise<void> {
  const { stampPdfFile } = await import("../src/server/features/pdf-stamps/stamp-pdf");
  const { PdfStampRefusal } = await import("../src/server/features/pdf-stamps/pdf-file");
  const pdfLib = approach === "pdf-lib" ? await import("pdf-lib") : undefined;
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  let pages: number;
  let refused: string | undefined;
  if (pdfLib) {
    const document = await pdfLib.PDFDocument.load(await readFile(input));
    const font = await document.embedFont(pdfLib.StandardFonts.Helvetica);
    for (const page of document.getPages()) page.drawText(LINE, { x: 150, y: 10, size: 7, font });
    pages = document.getPageCount();
    await writeFile(output, await document.save());
  } else {
    try {
      pages = (await stampPdfFile(input, output, LINE)).pages;
    } catch (error) {
      // A refusal is an outcome to report (the file is then served unstamped), not a crash.
      if (!(error instanceof PdfStampRefusal)) throw error;
      await writeFile(output, "");
      pages = 0;
      refused = `${error.reason}: ${error.message}`;
    }
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const report: ChildReport = {
    ms,
    baselineRssMb: baseline / 2 ** 20,
    peakRssMb: peak / 2 ** 20,
    pages,
    ...(refused ? { refused } : {}),
  };
  process.stdout.write(JSON.stringify(report));
}

async function runChild(approach: string, input: string, output: string): Promise<ChildReport> {
  const proc = spawn(
    process.execPath,
    [...process.execArgv, process.argv[1]!, "--child", approach, input, output],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let stdout = "";
  proc.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const [code] = (await once(proc, "exit")) as [number];
  if (code !== 0) throw new Error(`${approach} child exited with ${code}`);
  return JSON.parse(stdout) as ChildReport;
}

async function main(): Promise<void> {
  const shared = args.includes("--shared-contents");
  const megabytes = option("mb", 50);
  const pages = option("pages", shared ? 300 : 500);
  const dir = await mkdtemp(path.join(tmpdir(), "bench-stamp-"));
  try {
    const input = path.join(dir, "input.pdf");
    if (shared) {
      const { sharedContentsPdf } = await import("../src/server/features/pdf-stamps/test-pdfs");
      await writeFile(input, sharedContentsPdf({ pages, refs: option("refs", 50_000) }));
    } else await writeBenchPdf(input, megabytes, pages);
    const inputBytes = (await stat(input)).size;
    console.log(
      `input: ${(inputBytes / 2 ** 20).toFixed(2)} MB, ${pages} pages${shared ? ", one shared /Contents array" : ""}`,
    );
    const approaches = ["incremental", ...(args.includes("--pdf-lib") ? ["pdf-lib"] : [])];
    for (const approach of approaches) {
      const output = path.join(dir, `${approach}.pdf`);
      const report = await runChild(approach, input, output);
      if (report.refused) {
        console.log(
          `${approach.padEnd(11)} ${report.ms.toFixed(0).padStart(6)} ms  RSS ${report.baselineRssMb.toFixed(0)} → ${report.peakRssMb.toFixed(0)} MB (+${(report.peakRssMb - report.baselineRssMb).toFixed(0)} MB)  refused (${report.refused})`,
        );
        continue;
      }
      const outputBytes = (await stat(output)).size;
      const stamped = await readFile(output);
      const hasLine = stamped.includes(Buffer.from(LINE.replace("·", "\xb7"), "latin1"));
      let checkedPages = "";
      if (args.includes("--pdf-lib")) {
        const { PDFDocument } = await import("pdf-lib");
        checkedPages = `, pdf-lib reads ${(await PDFDocument.load(stamped)).getPageCount()} pages`;
      }
      console.log(
        `${approach.padEnd(11)} ${report.ms.toFixed(0).padStart(6)} ms  RSS ${report.baselineRssMb.toFixed(0)} → ${report.peakRssMb.toFixed(0)} MB (+${(report.peakRssMb - report.baselineRssMb).toFixed(0)} MB)  ` +
          `output ${(outputBytes / 2 ** 20).toFixed(2)} MB (+${outputBytes - inputBytes} bytes, x${(outputBytes / inputBytes).toFixed(2)} the input), ${report.pages} pages stamped, line in bytes: ${hasLine}${checkedPages}`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (args[0] === "--child") await child(args[1]!, args[2]!, args[3]!);
else await main();
