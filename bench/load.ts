/**
 * Load for the benches: autocannon in a child process, so the load generator runs on a core of its own
 * instead of sharing the server's event loop (in the same process it took a share of every request's
 * time, the trivial baseline's most of all, which pulled every ratio towards 1 or away from it).
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";

const run = promisify(execFile);
const autocannonCli = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers plus connection errors and timeouts. */
  errors: number;
}

export async function load(
  url: string,
  options: { connections?: number; seconds: number; headers?: Record<string, string>; workers?: number },
): Promise<LoadResult> {
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
    "-H",
    `${name}:${value}`,
  ]);
  const { stdout } = await run(
    process.execPath,
    [
      autocannonCli,
      "--json",
      "-c",
      String(options.connections ?? 50),
      "-d",
      String(options.seconds),
      ...(options.workers ? ["-w", String(options.workers)] : []),
      ...headers,
      url,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

type Headers = Record<string, string>;

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Each endpoint measured right after the trivial baseline, `rounds` times: the machine's load drifts
 * within seconds (other work shares it), so a ratio is only fair against a baseline taken just before.
 * Prints a table of medians and answers the median ratio per endpoint.
 */
export async function pairedRatios(
  baseUrl: string,
  endpoints: Array<{ name: string; path: string; headers?: Headers | (() => Promise<Headers>) }>,
  options: { rounds: number; seconds: number; baselinePath: string; headers?: Record<string, string> },
): Promise<Map<string, number>> {
  const rows = endpoints.map((endpoint) => ({
    ...endpoint,
    ratios: [] as number[],
    runs: [] as LoadResult[],
  }));
  const baselines: LoadResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    for (const row of rows) {
      const measure = (path: string, headers?: Headers) =>
        load(`${baseUrl}${path}`, { seconds: options.seconds, headers: { ...options.headers, ...headers } });
      const baseline = await measure(options.baselinePath);
      // Asked for just before the run: a session cookie is then signed in afresh when it is getting old.
      const run = await measure(
        row.path,
        typeof row.headers === "function" ? await row.headers() : row.headers,
      );
      baselines.push(baseline);
      row.runs.push(run);
      row.ratios.push(run.rps / baseline.rps);
    }
  }
  const summary = (runs: LoadResult[]) =>
    `${median(runs.map((r) => r.rps)).toFixed(0)} | ${median(runs.map((r) => r.p50))} | ${median(runs.map((r) => r.p99))} | ${runs.reduce((sum, r) => sum + r.errors, 0)}`;
  console.log(
    `\n${options.rounds} rounds of ${options.seconds} s per endpoint, each right after the baseline; load from a child process; medians.`,
    "\n| endpoint | req/s | p50 ms | p99 ms | errors | throughput vs baseline (median, all rounds) |\n|---|---|---|---|---|---|",
  );
  console.log(`| trivial endpoint (baseline) | ${summary(baselines)} | 1.000 |`);
  for (const row of rows) {
    const ratios = row.ratios.map((ratio) => ratio.toFixed(3)).join(", ");
    console.log(`| ${row.name} | ${summary(row.runs)} | ${median(row.ratios).toFixed(3)} (${ratios}) |`);
  }
  return new Map(rows.map((row) => [row.name, median(row.ratios)]));
}
