// Decision 0510: what React Router's production build and the React Router patch
// (patches/) each save on a signed-in /home. Starts the built app of each variant in turn, the
// variants interleaved round after round (A B C, C B A, …) so that other work on the machine
// falls on all of them alike, and measures the app's own CPU per page at one connection, and the
// pages per second and CPU per page at BENCH_CONNECTIONS. Each variant is a directory holding a
// main.js, build/ and node_modules/ (copies that differ only in node_modules/react-router) and
// the Node arguments it is started with; bench/results/react-router-patch.md says how they were made.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench npx tsx bench/react-router-patch.ts \
//     'unpatched=/tmp/rr-var/prodU' 'patched=/tmp/rr-var/prodP' …
//
// A variant is label=directory, or label=directory=node-args (space-separated, "-" for none);
// without node args it starts as `npm start` does. Knobs: BENCH_PORT (4735), BENCH_ROUNDS (4),
// BENCH_SECONDS (8), BENCH_CONNECTIONS (10), BENCH_WARM_SECONDS (5).
//
// BENCH_CALLGRIND=1 counts instructions instead, which other work on the machine does not change:
// each variant once, in the order given, under `valgrind --tool=callgrind --instr-atstart=no`, BENCH_CALLGRIND_WARM
// (40; 150 for the recorded figures) pages one after another, then instrumentation on for
// BENCH_CALLGRIND_PAGES (40; 60) more. It reports V8 compiling and full collections apart, as
// they vary from run to run.
import { execFileSync, spawn } from "node:child_process";
import { openSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startAppProcess } from "../scripts/app-process";
import { builtAppEnv, signInThroughLogin } from "./app";
import { BENCH_USER, benchTarget } from "./database";
import autocannon, { type Result as LoadResult } from "./load-generator";

const PORT = Number(process.env.BENCH_PORT ?? 4735);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 5);
const BASE = `http://localhost:${PORT}`;
/** Linux's USER_HZ. */
const CLOCK_TICKS = 100;

interface Variant {
  label: string;
  dir: string;
  nodeArgs?: string[];
}

interface Run {
  round: number;
  label: string;
  uptime: string;
  oneCpuMs: number;
  onePagesPerSecond: number;
  manyCpuMs: number;
  manyPagesPerSecond: number;
  errors: number;
}

function parseVariants(args: string[]): Variant[] {
  if (args.length < 2) throw new Error("Give at least two variants: label=directory[=node args]");
  return args.map((arg) => {
    const [label, dir, nodeArgs] = arg.split("=");
    if (!label || !dir) throw new Error(`Not a variant: ${arg}`);
    return {
      label,
      dir: path.resolve(dir),
      nodeArgs: nodeArgs === undefined ? undefined : nodeArgs === "-" ? [] : nodeArgs.split(" "),
    };
  });
}

/** CPU seconds (user + system) the process has used, from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

async function load(
  pid: number,
  cookie: string,
  connections: number,
  seconds: number,
): Promise<{ cpuMs: number; pagesPerSecond: number; errors: number }> {
  const before = await cpuSeconds(pid);
  const result = await new Promise<LoadResult>((resolve, reject) => {
    autocannon(
      {
        url: `${BASE}/home`,
        connections,
        duration: seconds,
        headers: { "accept-encoding": "gzip, deflate, br, zstd", cookie },
        timeout: 30,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  const cpu = (await cpuSeconds(pid)) - before;
  const pages = result.requests.total ?? 0;
  return {
    cpuMs: (cpu * 1000) / Math.max(1, pages),
    pagesPerSecond: pages / seconds,
    errors: result.errors + result.non2xx,
  };
}

async function measure(variant: Variant, round: number): Promise<Run> {
  const target = benchTarget();
  const app = await startAppProcess({
    env: {
      ...builtAppEnv(PORT),
      LOG_LEVEL: "warn",
      WORKERS: "1",
      ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir }),
    },
    port: PORT,
    output: path.join(os.tmpdir(), `cbs-rr-bench-${variant.label}.log`),
    startTimeoutMs: 120_000,
    cwd: variant.dir,
    nodeArgs: variant.nodeArgs,
  });
  try {
    const pid = app.pid;
    if (!pid) throw new Error("The app has no pid");
    const cookie = await signInThroughLogin(BASE, BENCH_USER.email, BENCH_USER.password);
    const page = await fetch(`${BASE}/home`, { headers: { cookie } });
    if (page.status !== 200 || !(await page.text()).includes("<article")) {
      throw new Error(`The signed-in /home answered ${page.status} without posts`);
    }
    await load(pid, cookie, CONNECTIONS, WARM_SECONDS);
    const uptime = execFileSync("uptime", { encoding: "utf8" }).trim();
    const one = await load(pid, cookie, 1, SECONDS);
    const many = await load(pid, cookie, CONNECTIONS, SECONDS);
    const run: Run = {
      round,
      label: variant.label,
      uptime: uptime.replace(/^.*load average: /, ""),
      oneCpuMs: one.cpuMs,
      onePagesPerSecond: one.pagesPerSecond,
      manyCpuMs: many.cpuMs,
      manyPagesPerSecond: many.pagesPerSecond,
      errors: one.errors + many.errors,
    };
    console.log(JSON.stringify(run));
    return run;
  } finally {
    await app.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const CALLGRIND_WARM = Number(process.env.BENCH_CALLGRIND_WARM ?? 40);
const CALLGRIND_PAGES = Number(process.env.BENCH_CALLGRIND_PAGES ?? 40);

/** Instructions per signed-in /home of one variant under callgrind. */
async function countInstructions(
  variant: Variant,
): Promise<{ perPage: number; compilingPerPage: number; fullCollectionsPerPage: number }> {
  const target = benchTarget();
  const outFile = path.join(os.tmpdir(), `cbs-rr-callgrind-${variant.label}.out`);
  await rm(outFile, { force: true });
  const logFile = openSync(path.join(os.tmpdir(), `cbs-rr-callgrind-${variant.label}.log`), "w");
  const child = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      "--instr-atstart=no",
      `--callgrind-out-file=${outFile}`,
      process.execPath,
      ...(variant.nodeArgs ?? ["--conditions=production"]),
      "main.js",
    ],
    {
      cwd: variant.dir,
      env: {
        ...builtAppEnv(PORT),
        LOG_LEVEL: "warn",
        WORKERS: "1",
        ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir }),
      },
      stdio: ["ignore", logFile, logFile],
    },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`${variant.label}: no answer from /healthz under valgrind`);
      const up = await fetch(`${BASE}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const cookie = await signInThroughLogin(BASE, BENCH_USER.email, BENCH_USER.password);
    const page = async () => {
      const response = await fetch(`${BASE}/home`, {
        headers: { "accept-encoding": "gzip, deflate, br, zstd", cookie },
      });
      await response.arrayBuffer();
      return response.status;
    };
    // A cold page under valgrind can outlast the render's timeout (app/entry.server.tsx): the
    // warm-up goes on until the pages answer.
    for (let i = 0, answered = 0; i < CALLGRIND_WARM || answered < 5; i++) {
      answered = (await page()) === 200 ? answered + 1 : 0;
      if (i > CALLGRIND_WARM * 5) throw new Error(`${variant.label}: /home still fails after the warm-up`);
    }
    execFileSync("callgrind_control", ["-i", "on", String(child.pid)]);
    for (let i = 0; i < CALLGRIND_PAGES; i++) {
      const status = await page();
      if (status !== 200) throw new Error(`${variant.label}: /home answered ${status} while counted`);
    }
    execFileSync("callgrind_control", ["-i", "off", String(child.pid)]);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  // The totals of every thread's part of the profile, and the part of it that is V8 compiling
  // code: after 150 pages it still compiled (a quarter of the count, varying run to run), which a
  // server that runs for days does once. Both are reported.
  let instructions = 0;
  let compiling = 0;
  let fullCollections = 0;
  for (const file of [outFile, ...(await readdirNames(path.dirname(outFile), path.basename(outFile)))]) {
    const text = await readFile(file, "utf8").catch(() => "");
    const total = text.match(/^totals: (\d+)/m);
    if (!total) continue;
    instructions += Number(total[1]);
    const annotated = execFileSync("callgrind_annotate", ["--threshold=100", file], {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    for (const line of annotated.split("\n")) {
      const counted = /^\s*([\d,]+) \(/.exec(line);
      if (!counted?.[1] || line.includes("PROGRAM TOTALS")) continue;
      const count = Number(counted[1].replaceAll(",", ""));
      if (V8_COMPILER.test(line)) compiling += count;
      else if (V8_FULL_COLLECTION.test(line)) fullCollections += count;
    }
  }
  return {
    perPage: instructions / CALLGRIND_PAGES,
    compilingPerPage: compiling / CALLGRIND_PAGES,
    fullCollectionsPerPage: fullCollections / CALLGRIND_PAGES,
  };
}

/** Functions of V8's parser, interpreter's bytecode generator and optimising compilers. */
const V8_COMPILER =
  /compiler::|maglev|Maglev|turboshaft|Turboshaft|Compil|interpreter::|BytecodeGenerator|Parser|Scanner/;
/**
 * Functions of V8's full (mark-compact) collections. One falls inside the counted window or not by
 * chance, and a window with one is disturbed beyond it (write barriers, sweeping): compare the
 * windows where this is near zero.
 */
const V8_FULL_COLLECTION =
  /ConcurrentMarking|MarkCompact|MarkingVisitor|Sweeper|IncrementalMarking|MarkingBarrier|MemoryChunk|MarkingWorklist|SizeFromMap|IterateObjectCache|Evacuat|RememberedSet|MinorMark|MarkBit/;

/** The per-thread files callgrind writes beside `base` (base-01, base-02, …). */
async function readdirNames(dir: string, base: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((name) => name.startsWith(`${base}-`))
    .map((name) => path.join(dir, name));
}

async function main() {
  const variants = parseVariants(process.argv.slice(2));
  if (process.env.BENCH_CALLGRIND === "1") {
    const counts: string[] = [];
    for (const variant of variants) {
      const uptime = execFileSync("uptime", { encoding: "utf8" })
        .trim()
        .replace(/^.*load average: /, "");
      const { perPage, compilingPerPage, fullCollectionsPerPage } = await countInstructions(variant);
      console.log(
        JSON.stringify({ label: variant.label, perPage, compilingPerPage, fullCollectionsPerPage, uptime }),
      );
      counts.push(
        `| ${variant.label} | ${(perPage / 1e6).toFixed(1)} M | ${(compilingPerPage / 1e6).toFixed(1)} M | ${(fullCollectionsPerPage / 1e6).toFixed(1)} M | ${((perPage - compilingPerPage - fullCollectionsPerPage) / 1e6).toFixed(1)} M | ${uptime} |`,
      );
    }
    console.log(
      `\n${new Date().toISOString()} · callgrind · signed-in /home · ${CALLGRIND_WARM} pages warm-up, ${CALLGRIND_PAGES} counted\n\n` +
        `| variant | instructions per page | V8 compiling | full collections | the rest | load average when it started |\n|---|---:|---:|---:|---:|---|\n${counts.join("\n")}`,
    );
    return;
  }
  const runs: Run[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? variants : [...variants].reverse();
    for (const variant of order) runs.push(await measure(variant, round));
  }
  const lines = [
    `${new Date().toISOString()} · ${os.cpus().length} cores · Node ${process.version} · ${benchTarget().label} · ` +
      `signed-in /home · ${SECONDS} s a run, ${CONNECTIONS} connections for the second · ${ROUNDS} rounds, interleaved`,
    "",
    `| round | variant | load average (1, 5, 15 min) | 1 conn: app CPU ms/page | 1 conn: pages/s | ${CONNECTIONS} conns: app CPU ms/page | ${CONNECTIONS} conns: pages/s | errors |`,
    "|---:|---|---|---:|---:|---:|---:|---:|",
    ...runs.map(
      (r) =>
        `| ${r.round} | ${r.label} | ${r.uptime} | ${r.oneCpuMs.toFixed(2)} | ${r.onePagesPerSecond.toFixed(0)} | ${r.manyCpuMs.toFixed(2)} | ${r.manyPagesPerSecond.toFixed(0)} | ${r.errors} |`,
    ),
    "",
    `| variant | median 1 conn: app CPU ms/page | median ${CONNECTIONS} conns: app CPU ms/page | median ${CONNECTIONS} conns: pages/s |`,
    "|---|---:|---:|---:|",
    ...variants.map((variant) => {
      const own = runs.filter((r) => r.label === variant.label);
      return `| ${variant.label} | ${median(own.map((r) => r.oneCpuMs)).toFixed(2)} | ${median(own.map((r) => r.manyCpuMs)).toFixed(2)} | ${median(own.map((r) => r.manyPagesPerSecond)).toFixed(0)} |`;
    }),
  ];
  console.log(`\n${lines.join("\n")}`);
}

await main();
