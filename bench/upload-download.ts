/**
 * Upload then download a 250 MB file through the local storage driver's signed PUT/GET routes on a real
 * listening server (in a child process, so its memory is measured alone), against `cp` of the same file
 * on the same disk. Run: npx tsx bench/upload-download.ts [sizeMB...]   (default: 25 250)
 */
import { type ChildProcess, fork, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { localDiskStorage } from "../src/server/adapters/storage/local-disk";
import { registerFileRoutes } from "../src/server/features/uploads/file-routes";
import { registerErrorHandling } from "../src/server/http/errors";

const SECRET = "bench-secret";
const MB = 1024 * 1024;

type ServerMessage = { url: string } | { rss: { baseline: number; peak: number } };

/** Child: the file routes on Fastify, sampling its own RSS every 10 ms. */
async function serve(root: string): Promise<void> {
  const storage = await localDiskStorage(root, { secret: SECRET });
  const app = Fastify();
  registerErrorHandling(app);
  registerFileRoutes(app, storage);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10).unref();
  process.on("message", (message) => {
    if (message === "rss") process.send?.({ rss: { baseline, peak } } satisfies ServerMessage);
    if (message === "reset") peak = process.memoryUsage().rss;
  });
  process.send?.({
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
  } satisfies ServerMessage);
}

function ask(child: ChildProcess, message?: string): Promise<ServerMessage> {
  return new Promise((resolve) => {
    child.once("message", (reply) => resolve(reply as ServerMessage));
    if (message) child.send(message);
  });
}

async function writeRandomFile(file: string, bytes: number): Promise<void> {
  const block = randomBytes(MB);
  let written = 0;
  const out = createWriteStream(file);
  while (written < bytes) {
    const size = Math.min(MB, bytes - written);
    if (!out.write(block.subarray(0, size))) await once(out, "drain");
    written += size;
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** Wall time of a command, after flushing earlier writes so each measurement starts from the same state. */
function timeCommand(command: string, args: string[]): number {
  spawnSync("sync");
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args);
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  return seconds(start);
}

/** curl as the client, so the numbers are the server's (a Node client was the slower end of the pipe). */
function curl(args: string[]): number {
  const result = spawnSync("curl", ["--silent", "--show-error", "--write-out", "%{http_code}", ...args]);
  if (result.status !== 0) throw new Error(`curl failed: ${result.stderr}`);
  return Number(result.stdout.toString());
}

// `Expect:` stops curl from waiting for a 100 Continue before sending the body.
const put = (url: string, file: string) =>
  curl([
    "--upload-file",
    file,
    "--header",
    "Content-Type: application/octet-stream",
    "--header",
    "Expect:",
    "--output",
    "/dev/null",
    url,
  ]);
const get = (url: string, file: string) => curl(["--output", file, url]);

async function measure(
  sizeMb: number,
  workDir: string,
  child: ChildProcess,
  serverUrl: string,
  root: string,
) {
  const size = sizeMb * MB;
  const source = path.join(workDir, `source-${sizeMb}.bin`);
  await writeRandomFile(source, size);

  const cpSeconds = timeCommand("cp", [source, path.join(workDir, `copy-${sizeMb}.bin`)]);
  // cp copies inside the kernel (copy_file_range); cat moves the bytes through user space, as a server must.
  const catSeconds = timeCommand("sh", [
    "-c",
    `cat "${source}" > "${path.join(workDir, `cat-${sizeMb}.bin`)}"`,
  ]);

  // Same root and secret as the server: this process only signs the links.
  const signer = await localDiskStorage(root, { secret: SECRET });
  const key = `bench/${Date.now()}-${sizeMb}.bin`;
  const target = await signer.signedUploadTarget("product-files", key, {
    sizeBytes: size,
    contentType: "application/octet-stream",
    expiresInSeconds: 600,
  });
  child.send("reset");
  spawnSync("sync");
  let start = process.hrtime.bigint();
  const putStatus = put(`${serverUrl}${target.url}`, source);
  const uploadSeconds = seconds(start);
  if (putStatus !== 200) throw new Error(`upload answered ${putStatus}`);

  const downloadUrl = await signer.signedDownloadUrl("product-files", key, {
    fileName: "bench.bin",
    contentType: "application/octet-stream",
    expiresInSeconds: 600,
  });
  const downloaded = path.join(workDir, `download-${sizeMb}.bin`);
  spawnSync("sync");
  start = process.hrtime.bigint();
  const getStatus = get(`${serverUrl}${downloadUrl}`, downloaded);
  const downloadSeconds = seconds(start);
  if (getStatus !== 200 || (await stat(downloaded)).size !== size) throw new Error("download incomplete");

  const reply = await ask(child, "rss");
  if (!("rss" in reply)) throw new Error("no memory report");
  await Promise.all(
    ["source", "download", "copy", "cat"].map((name) =>
      rm(path.join(workDir, `${name}-${sizeMb}.bin`), { force: true }),
    ),
  );
  await signer.delete("product-files", key);
  return { sizeMb, cpSeconds, catSeconds, uploadSeconds, downloadSeconds, rss: reply.rss };
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  // Under DATA_DIR's parent (./data), so the copy, the upload and the download all hit the same disk.
  await mkdir("data", { recursive: true });
  const workDir = await mkdtemp(path.resolve("data", "bench-"));
  const root = path.join(workDir, "storage");
  const child = fork(fileURLToPath(import.meta.url), ["serve", root], { execArgv: ["--import", "tsx"] });
  try {
    const ready = await ask(child);
    if (!("url" in ready)) throw new Error("server did not start");
    const results = [];
    for (const sizeMb of sizes.length ? sizes : [25, 250]) {
      results.push(await measure(sizeMb, workDir, child, ready.url, root));
    }
    const rows = results.map((r) => ({
      "size MB": r.sizeMb,
      "cp s": r.cpSeconds.toFixed(3),
      "cat s": r.catSeconds.toFixed(3),
      "upload s": r.uploadSeconds.toFixed(3),
      "download s": r.downloadSeconds.toFixed(3),
      "upload MB/s": (r.sizeMb / r.uploadSeconds).toFixed(0),
      "download MB/s": (r.sizeMb / r.downloadSeconds).toFixed(0),
      "upload / cp": (r.uploadSeconds / r.cpSeconds).toFixed(2),
      "download / cp": (r.downloadSeconds / r.cpSeconds).toFixed(2),
      "upload / cat": (r.uploadSeconds / r.catSeconds).toFixed(2),
      "download / cat": (r.downloadSeconds / r.catSeconds).toFixed(2),
      "server RSS base MB": (r.rss.baseline / MB).toFixed(0),
      "server RSS peak MB": (r.rss.peak / MB).toFixed(0),
      "growth MB": ((r.rss.peak - r.rss.baseline) / MB).toFixed(1),
    }));
    console.table(rows);
  } finally {
    child.kill();
    await rm(workDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "serve") await serve(process.argv[3] ?? "data/bench-storage");
else await main();
