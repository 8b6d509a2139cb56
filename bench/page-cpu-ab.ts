// A before/after comparison of the app's own CPU per signed-in page that a shared machine's load
// does not decide (decision 0607): two builds on the same PostgreSQL data, both running at once,
// measured in alternating short rounds of one connection each, so whatever else the machine does
// falls on both alike. The figure to read is the median of the rounds' after/before ratios.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench BENCH_BEFORE_DIR=/tmp/before npx tsx bench/page-cpu-ab.ts
//
// BENCH_BEFORE_DIR is another checkout, built (`npm run build`), of the code before the change; this
// checkout's build is the after. Data: bench/generate.ts. Knobs: BENCH_AB_ROUNDS (16),
// BENCH_ROUND_SECONDS (4), BENCH_WARM_SECONDS (5), BENCH_AB_PORTS ("4196,4197").
import { appendFile, mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startAppProcess } from "../scripts/app-process";
import { builtAppEnv, cpuSeconds, signInThroughLogin } from "./app";
import { BENCH_USER, benchTarget } from "./database";
import autocannon from "./load-generator";

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 16);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 4);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 5);
const PORTS = (process.env.BENCH_AB_PORTS ?? "4196,4197").split(",").map(Number);
const BEFORE_DIR = process.env.BENCH_BEFORE_DIR;

interface Side {
  name: "before" | "after";
  base: string;
  pid: number | undefined;
  cookie: string;
  postPath: string;
  stop(): Promise<unknown>;
}

interface Page {
  label: string;
  path(side: Side): string;
  headers(side: Side): Record<string, string>;
}

const PAGES: Page[] = [
  { label: "/home (signed in)", path: () => "/home", headers: (side) => ({ cookie: side.cookie }) },
  {
    label: "/post/{id} (signed in)",
    path: (side) => side.postPath,
    headers: (side) => ({ cookie: side.cookie }),
  },
  // A cookie the page cache does not know: the visitor's page rendered each time.
  {
    label: "/home (visitor, page cache bypassed)",
    path: () => "/home",
    headers: () => ({ cookie: "bench_uncached=1" }),
  },
];

async function startSide(name: Side["name"], port: number, cwd: string | undefined): Promise<Side> {
  const target = benchTarget();
  if (!target.databaseUrl) throw new Error("page-cpu-ab needs DATABASE_URL: two apps share the data");
  const app = await startAppProcess({
    env: {
      ...builtAppEnv(port),
      LOG_LEVEL: "warn",
      PUBLIC_CAMPUSES: "ou",
      WORKERS: "1",
      DATABASE_URL: target.databaseUrl,
    },
    port,
    output: "inherit",
    startTimeoutMs: 120_000,
    cwd,
  });
  const base = `http://localhost:${port}`;
  const cookie = await signInThroughLogin(base, BENCH_USER.email, BENCH_USER.password);
  const home = await (await fetch(`${base}/home`, { headers: { cookie } })).text();
  const postId = home.match(/href="\/post\/([0-9a-f-]{36})"/)?.[1];
  if (!postId) throw new Error(`${name}: no post on the signed-in /home`);
  return { name, base, pid: app.pid, cookie, postPath: `/post/${postId}`, stop: () => app.stop() };
}

/** Pages served and the app's CPU ms per page over one run of `connections` for `seconds`. */
async function run(side: Side, page: Page, connections: number, seconds: number): Promise<number> {
  const cpuBefore = await cpuSeconds(side.pid);
  const served = await new Promise<number>((resolve, reject) => {
    autocannon(
      {
        url: `${side.base}${page.path(side)}`,
        connections,
        duration: seconds,
        headers: { "accept-encoding": "gzip, deflate, br, zstd", ...page.headers(side) },
        timeout: 30,
      },
      (error, result) => (error ? reject(error) : resolve(result.requests.total - result.non2xx)),
    );
  });
  const cpu = (await cpuSeconds(side.pid)) - cpuBefore;
  return (cpu * 1000) / Math.max(1, served);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main() {
  if (!BEFORE_DIR) throw new Error("BENCH_BEFORE_DIR: a built checkout of the code before the change");
  const loadAtStart = os.loadavg()[0]?.toFixed(2) ?? "?";
  const before = await startSide("before", PORTS[0] ?? 4196, path.resolve(BEFORE_DIR));
  const after = await startSide("after", PORTS[1] ?? 4197, undefined);
  const lines: string[] = [];
  try {
    for (const side of [before, after]) for (const page of PAGES) await run(side, page, 10, WARM_SECONDS);
    for (const page of PAGES) {
      const ms: Record<Side["name"], number[]> = { before: [], after: [] };
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate which goes first, so a trend in the machine's load favours neither.
        const order = round % 2 ? [after, before] : [before, after];
        const figures: Partial<Record<Side["name"], number>> = {};
        for (const side of order) figures[side.name] = await run(side, page, 1, ROUND_SECONDS);
        ms.before.push(figures.before ?? Number.NaN);
        ms.after.push(figures.after ?? Number.NaN);
        ratios.push((figures.after ?? Number.NaN) / (figures.before ?? Number.NaN));
      }
      const change = (median(ratios) - 1) * 100;
      const line = `| ${page.label} | ${median(ms.before).toFixed(2)} | ${median(ms.after).toFixed(2)} | ${change >= 0 ? "+" : ""}${change.toFixed(1)} % | ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} |`;
      console.log(line);
      lines.push(line);
    }
  } finally {
    await Promise.all([before.stop(), after.stop()]);
  }
  const report = [
    `## App CPU per page, before (${BEFORE_DIR}) and after (this checkout)`,
    "",
    `${new Date().toISOString()} · ${os.cpus().length} cores · load average ${loadAtStart} at the start, ${os.loadavg()[0]?.toFixed(2)} at the end · ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s, 1 connection`,
    "",
    "| page | before: median ms/page | after: median ms/page | median of the rounds' after/before | range of the ratios |",
    "|---|---:|---:|---:|---|",
    ...lines,
    "",
  ].join("\n");
  const file = path.join(import.meta.dirname, "results", "page-cpu-ab.md");
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${report}\n`);
  console.log(`\nAdded to ${path.relative(process.cwd(), file)}`);
}

await main();
