/**
 * Load from wrk (C, out of process) and nginx as the baseline: for the benches whose question is "how
 * close to a static server does this route come". autocannon (Node) could not ask a cached page fast
 * enough to load the server (about 5,000 answers/s of a 10 KB page: its own ceiling, not the server's).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { LoadResult } from "./load";

const run = promisify(execFile);
/** Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;
export const WRK = "/usr/bin/wrk";
export const NGINX = "/usr/sbin/nginx";

/** wrk with one thread (the server has one event loop; the other core is the client's). */
export async function wrk(
  url: string,
  options: { connections?: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
    "-H",
    `${name}: ${value}`,
  ]);
  const { stdout } = await run(WRK, [
    "-t1",
    `-c${options.connections ?? 50}`,
    `-d${options.seconds}s`,
    "--latency",
    ...headers,
    url,
  ]);
  const number = (pattern: RegExp) => Number(stdout.match(pattern)?.[1] ?? 0);
  const ms = (pattern: RegExp) => {
    const match = stdout.match(pattern);
    if (!match) return 0;
    const value = Number(match[1]);
    return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
  };
  const errors = stdout.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p50: ms(/\s50%\s+([\d.]+)(us|ms|s)/),
    p99: ms(/\s99%\s+([\d.]+)(us|ms|s)/),
    errors:
      number(/Non-2xx or 3xx responses: (\d+)/) +
      (errors ? errors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0),
  };
}

/** A file nginx serves at `/<name>` with exactly these bytes and headers. */
export interface StaticFile {
  name: string;
  body: Buffer;
  /** Sent as they are (content-type included); nginx adds its own date, length, ETag and server. */
  headers: Record<string, string>;
}

/** The same headers as nginx config lines; content-type becomes the location's default_type. */
function locationOf(file: StaticFile): string {
  const lines = Object.entries(file.headers).map(([name, value]) =>
    name === "content-type"
      ? `default_type "${value}";`
      : `add_header ${name} '${value.replace(/'/g, "\\'")}' always;`,
  );
  return `location = /${file.name} {\n      types {}\n      ${lines.join("\n      ")}\n    }`;
}

/**
 * nginx with one worker (the app is one process too) serving `files` on a free loopback port, with its
 * access log on (the app logs as deployed). Answers its URL and a stop function.
 */
export async function startNginx(
  files: StaticFile[],
): Promise<{ url: string; cpuMicros(): Promise<number>; stop(): Promise<void> }> {
  if (!existsSync(NGINX)) throw new Error(`No nginx at ${NGINX}: apt-get install nginx-light`);
  const dir = await mkdtemp(path.join(tmpdir(), "flatfee-nginx-"));
  const root = path.join(dir, "root");
  await mkdir(root);
  for (const file of files) await writeFile(path.join(root, file.name), file.body);
  const port = await freePort();
  const config = `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${process.getuid?.() === 0 ? "user root;" : ""}
events { worker_connections 4096; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  server_tokens off;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    ${files.map(locationOf).join("\n    ")}
  }
}
`;
  await writeFile(path.join(dir, "nginx.conf"), config);
  const nginx: ChildProcess = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(`${url}/${files[0]?.name}`);
      break;
    } catch (error) {
      if (attempt > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    /** CPU time (user + system) nginx's processes have used so far, from /proc. */
    async cpuMicros() {
      const children = await readFile(`/proc/${nginx.pid}/task/${nginx.pid}/children`, "utf8");
      const pids = [String(nginx.pid), ...children.trim().split(/\s+/).filter(Boolean)];
      let ticks = 0;
      for (const pid of pids) {
        // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        const stat = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]?.split(" ") ?? [];
        ticks += Number(stat[11]) + Number(stat[12]);
      }
      return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
    },
    async stop() {
      const exited = new Promise((resolve) => nginx.once("exit", resolve));
      nginx.kill("SIGQUIT");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
