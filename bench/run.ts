// The load benchmark (decision 0102): starts the built app (`node main.js`) on the
// database bench/generate.ts filled, and drives it with autocannon: /home server-
// rendered, the feed's data request (what the browser fetches for the next page),
// /post/{id} and /saved (signed in). Beside them, the raw SQL time of the same feed
// query run directly, which is the floor the data request is compared with, and
// the EXPLAIN of every list query. Not a test: `npm run bench` after a build.
//
//   DATA_DIR=/tmp/cbs-bench npx tsx bench/run.ts
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench npx tsx bench/run.ts
//
// Knobs: BENCH_PORT (4195; 4190 is a port fetch refuses), BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_SQL_RUNS (300),
// BENCH_PAIRED_ROUNDS (8) and BENCH_ROUND_SECONDS (3) for the feed request against its SQL, BENCH_WARM_SECONDS (5)
// for each signed-in page's warm-up.
// The signed-in pages (decision 0354) run after the rest, or alone with BENCH_SIGNED_IN_ONLY=1; BENCH_APP_DIR
// starts another checkout's build instead of this one's (a before/after comparison on the same data).
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { Viewer } from "~/server/accounts/viewer";
import { type DatabaseHandle, openDatabase } from "~/server/db/client";
import { campuses } from "~/server/db/schema";
import { type CursorKey, decodeCursor } from "~/server/lists/cursor";
import { toPage } from "~/server/lists/pages";
import { commentQueries } from "~/server/posts/comments";
import { listPageHref } from "~/server/posts/list-names.shared";
import { listQueries } from "~/server/posts/list-queries";
import { LISTING_EXPIRY_MS } from "~/server/posts/listing.shared";
import { saveQueries } from "~/server/posts/saves";
import { startAppProcess } from "../scripts/app-process";
import { builtAppEnv, cpuSeconds, signInThroughLogin } from "./app";
import { BENCH_USER, benchTarget } from "./database";
import autocannon from "./load-generator";

const PORT = Number(process.env.BENCH_PORT ?? 4195);
/** What Chromium sends. */
const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SQL_RUNS = Number(process.env.BENCH_SQL_RUNS ?? 300);
const PAIRED_ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? 8);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
/** The signed-in pages' warm-up, each page with 10 connections before any is measured. */
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 5);
const CAMPUS = "ou";
const SIGNED_IN_ONLY = process.env.BENCH_SIGNED_IN_ONLY === "1";
/** Another checkout whose build is measured (its main.js and build/); this one's by default. */
const APP_DIR = process.env.BENCH_APP_DIR ? path.resolve(process.env.BENCH_APP_DIR) : undefined;
const BASE = `http://localhost:${PORT}`;
/** Other work on the machine skews the numbers: the 1-minute load average when the run began. */
const LOAD_BEFORE = os.loadavg()[0]?.toFixed(2) ?? "?";

interface Timing {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
  };
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "–");

// ---------------------------------------------------------------------------
// The database side, before the app starts (a PGlite data dir has one process at a time).

interface Prepared {
  sql: string;
  params: unknown[];
}

interface DatabaseFindings {
  version: string;
  feedPageSize: number;
  /** The cursor of the feed's second page, as the browser sends it. */
  feedCursor: string;
  /** The post of /post/{id}: the top of the feed. */
  postId: string;
  /** The SQL of the feed's second page: what the feed data request runs. */
  feedQuery: Prepared;
  floor: { label: string; sql: Timing; prepared: Timing; drizzle: Timing; concurrentPerSecond: number }[];
  explains: { label: string; plan: string }[];
}

/** The same SQL as a named (prepared) statement: parsed and planned once per connection, as the app runs its lists. */
async function preparedQuery(database: DatabaseHandle, query: Prepared, name: string): Promise<unknown[]> {
  if (database.pglite) return (await database.pglite.query(query.sql, query.params)).rows;
  if (database.pool) {
    return (await database.pool.query({ name, text: query.sql, values: query.params as unknown[] })).rows;
  }
  throw new Error("no driver");
}

async function rawQuery(database: DatabaseHandle, query: Prepared): Promise<unknown[]> {
  if (database.pglite) return (await database.pglite.query(query.sql, query.params)).rows;
  if (database.pool) return (await database.pool.query(query.sql, query.params as unknown[])).rows;
  throw new Error("no driver");
}

async function timeRuns(run: () => Promise<unknown>, runs: number): Promise<number[]> {
  for (let i = 0; i < 20; i++) await run(); // warm the cache and the plan
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Queries per second with `parallel` queries in flight (the app's pool has 10 connections). */
async function throughput(run: () => Promise<unknown>, parallel: number, runs: number): Promise<number> {
  let left = runs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (left-- > 0) await run();
    }),
  );
  return runs / ((performance.now() - started) / 1000);
}

const PROFILE_TABS = [
  { label: "profile posts", name: "profilePosts" },
  { label: "profile photos", name: "profilePhotos" },
  { label: "profile replies", name: "profileReplies" },
] as const;

async function examineDatabase(): Promise<DatabaseFindings> {
  const target = benchTarget();
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  try {
    const { db } = database;
    const version = String(
      ((await rawQuery(database, { sql: "select version() as v", params: [] }))[0] as { v: string }).v,
    );
    const [campus] = await db
      .select({ feedPageSize: campuses.feedPageSize })
      .from(campuses)
      .where(eq(campuses.id, CAMPUS));
    if (!campus) throw new Error("No campus 'ou': run bench/generate.ts first.");
    const size = campus.feedPageSize;
    const [users] = await db
      .execute(sql`select count(*)::int as n from "user"`)
      .then((result) => (result as unknown as { rows: { n: number }[] }).rows.map((row) => row.n));
    if (!users) throw new Error("The database is empty: run bench/generate.ts first.");

    // The feed's first page as the app reads it, and the cursor of the second.
    // Decision 0171: the feed's expiry cutoff, as listFeed computes it.
    const cutoff = new Date(Date.now() - LISTING_EXPIRY_MS).toISOString();
    // Decision 0546: the clock's now, against which authors' suspensions are compared.
    const now = new Date().toISOString();
    const firstRows = await listQueries.feed(db, null, {
      campusId: CAMPUS,
      category: null,
      cutoff,
      now,
      key: null,
      limit: size + 1,
    });
    const firstPage = toPage(
      firstRows,
      size,
      (row) => row.id,
      (row) => row.id,
    );
    if (!firstPage.nextCursor || !firstPage.items[0]) throw new Error("The feed of 'ou' has one page only.");
    const feedCursor = firstPage.nextCursor;
    const key: CursorKey = decodeCursor(feedCursor);
    const postId = firstPage.items[0];
    const benchViewer = { id: BENCH_USER.id } as Viewer;
    /** The feed's second page: the query of the feed data request. */
    const feedPageTwo = () =>
      listQueries.feed(db, null, { campusId: CAMPUS, category: null, cutoff, now, key, limit: size + 1 });

    // Every list query of decision 0081 (first page, or after a cursor where it pages).
    const lists: { label: string; query: { toSQL(): Prepared } }[] = [
      {
        label: "feed (/home), page 2",
        query: feedPageTwo(),
      },
      {
        label: "feed by category",
        query: listQueries.feed(db, null, {
          campusId: CAMPUS,
          category: "furniture",
          cutoff,
          now,
          key: null,
          limit: size + 1,
        }),
      },
      {
        label: "media grid (/media)",
        query: listQueries.feed(db, null, {
          campusId: CAMPUS,
          category: null,
          media: true,
          cutoff,
          now,
          key: null,
          limit: 16,
        }),
      },
      // A profile's three tabs: one user's posts, photos and replies on OU, first page.
      ...PROFILE_TABS.map(({ label, name }) => ({
        label,
        query: listQueries[name](db, null, {
          userId: "bench-user-14",
          campusId: CAMPUS,
          now,
          key: null,
          limit: 11,
        }),
      })),
      {
        label: "saved (/saved) and profile likes",
        query: listQueries.saved(db, benchViewer, {
          userId: BENCH_USER.id,
          campusId: CAMPUS,
          now,
          key: null,
          limit: 11,
        }),
      },
      { label: "thread of /post/{id}", query: commentQueries.thread(db, null, postId, now) },
      { label: "likers (/post/{id}/likes)", query: saveQueries.savers(db, { postId, key: null, size: 30 }) },
    ];
    const explains: DatabaseFindings["explains"] = [];
    for (const list of lists) {
      const prepared = list.query.toSQL();
      const rows = (await rawQuery(database, {
        sql: `explain (analyze, buffers, costs off) ${prepared.sql}`,
        params: prepared.params,
      })) as { "QUERY PLAN": string }[];
      explains.push({ label: list.label, plan: rows.map((row) => row["QUERY PLAN"]).join("\n") });
    }

    // The floor: the same queries the requests run, straight on the driver (and through Drizzle).
    const floors: { label: string; build: () => { toSQL(): Prepared; execute(): Promise<unknown> } }[] = [
      {
        label: "feed page 2 (the feed data request's query)",
        build: feedPageTwo,
      },
      {
        label: "feed page 1 (/home's query)",
        build: () =>
          listQueries.feed(db, null, {
            campusId: CAMPUS,
            category: null,
            cutoff,
            now,
            key: null,
            limit: size + 1,
          }),
      },
      { label: "thread (/post/{id}'s query)", build: () => commentQueries.thread(db, null, postId, now) },
      {
        label: "saved page 1 (/saved's query)",
        build: () =>
          listQueries.saved(db, benchViewer, {
            userId: BENCH_USER.id,
            campusId: CAMPUS,
            now,
            key: null,
            limit: 11,
          }),
      },
    ];
    const floor: DatabaseFindings["floor"] = [];
    for (const [index, item] of floors.entries()) {
      const prepared = item.build().toSQL();
      const raw = await timeRuns(() => rawQuery(database, prepared), SQL_RUNS);
      const named = await timeRuns(() => preparedQuery(database, prepared, `bench_floor_${index}`), SQL_RUNS);
      const drizzle = await timeRuns(() => item.build().execute(), SQL_RUNS);
      const concurrentPerSecond = await throughput(() => rawQuery(database, prepared), 10, SQL_RUNS * 2);
      floor.push({
        label: item.label,
        sql: timing(raw),
        prepared: timing(named),
        drizzle: timing(drizzle),
        concurrentPerSecond,
      });
    }
    return {
      version,
      feedPageSize: size,
      feedCursor,
      postId,
      feedQuery: feedPageTwo().toSQL(),
      floor,
      explains,
    };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------
// The app under load.

interface RunningApp {
  pid: number | undefined;
  stop(): Promise<void>;
}

async function startApp(workers = 1): Promise<RunningApp> {
  const target = benchTarget();
  const env: NodeJS.ProcessEnv = {
    ...builtAppEnv(PORT),
    LOG_LEVEL: "warn",
    // The visitor scenarios read OU's feed, post and media pages: open to visitors (decision 0135).
    PUBLIC_CAMPUSES: CAMPUS,
    // Decision 0290: n processes sharing the port (PostgreSQL only).
    WORKERS: String(workers),
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir }),
  };
  const app = await startAppProcess({
    env,
    port: PORT,
    output: "inherit",
    startTimeoutMs: 120_000,
    cwd: APP_DIR,
  });
  return { pid: app.pid, stop: async () => void (await app.stop()) };
}

/** The bench student's session cookie, for the signed-in pages. */
function signIn(): Promise<string> {
  return signInThroughLogin(BASE, BENCH_USER.email, BENCH_USER.password);
}

interface Scenario {
  label: string;
  path: string;
  headers?: Record<string, string>;
  /** What the page cache (decision 0104) did for this request after the warm-up: hit, miss or — (not cacheable). */
  pageCache?: string;
  /** A check of one response before the load (right page, right data). */
  expect: (status: number, body: string) => boolean;
}

interface LoadResult {
  label: string;
  path: string;
  connections: number;
  requestsPerSecond: number;
  /** The app's own CPU time per request (user + system), ms: what load elsewhere on the machine does not change. */
  cpuMsPerRequest: number;
  latency: Timing;
  pageCache: string;
  non2xx: number;
  errors: number;
}

async function load(
  app: RunningApp,
  scenario: Scenario,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const cpuBefore = await cpuSeconds(app.pid);
  const result = await new Promise<Omit<LoadResult, "cpuMsPerRequest" | "pageCache"> & { count: number }>(
    (resolve, reject) => {
      const samples: number[] = [];
      const instance = autocannon(
        {
          url: `${BASE}${scenario.path}`,
          connections,
          duration: seconds,
          // As a browser asks: compressed answers are what visitors get (and cost the app).
          headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING, ...scenario.headers },
          timeout: 30,
        },
        (error, result) => {
          if (error) return reject(error);
          resolve({
            label: scenario.label,
            path: scenario.path,
            connections,
            requestsPerSecond: result.requests.average,
            latency: timing(samples),
            non2xx: result.non2xx,
            errors: result.errors,
            count: samples.length,
          });
        },
      );
      instance.on("response", (_client, _status, _bytes, responseTime) => samples.push(responseTime));
    },
  );
  const cpu = (await cpuSeconds(app.pid)) - cpuBefore;
  const { count, ...rest } = result;
  return {
    ...rest,
    pageCache: scenario.pageCache ?? "—",
    cpuMsPerRequest: (cpu * 1000) / Math.max(1, count),
  };
}

interface PairedRound {
  sql: Timing;
  request: Timing;
}

/**
 * The feed data request against its SQL in alternating rounds, with the app running: a few
 * seconds of the query one after another, then a few seconds of the request on one
 * connection, and again. Measured minutes apart, as the floor above is, the two p50s also
 * carry the drift of this shared VM (up to 30 % from one minute to the next). PostgreSQL
 * only: a PGlite data dir is open in one process at a time, and the app holds it.
 */
async function pairedFeedRounds(
  app: RunningApp,
  scenario: Scenario,
  query: Prepared,
): Promise<PairedRound[] | null> {
  const target = benchTarget();
  if (!target.databaseUrl) return null;
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  try {
    for (let i = 0; i < 50; i++) await rawQuery(database, query);
    const rounds: PairedRound[] = [];
    for (let round = 0; round < PAIRED_ROUNDS; round++) {
      const samples: number[] = [];
      const deadline = performance.now() + ROUND_SECONDS * 1000;
      while (performance.now() < deadline) {
        const started = performance.now();
        await rawQuery(database, query);
        samples.push(performance.now() - started);
      }
      const request = await load(app, scenario, 1, ROUND_SECONDS);
      rounds.push({ sql: timing(samples), request: request.latency });
    }
    return rounds;
  } finally {
    await database.close();
  }
}

function median(values: number[]): number {
  return timing(values).p50;
}

// ---------------------------------------------------------------------------
// Decision 0354: the signed-in pages, on one process and on two (WORKERS=2).

interface SignedInRun {
  workers: number;
  /** The 1-minute load average when this app's runs began (other work on the machine skews them). */
  load: string;
  /** One connection: each page's own cost (the app's CPU per page is the target's figure). */
  single: LoadResult[];
  /** BENCH_CONNECTIONS connections: throughput and p95. */
  many: LoadResult[];
}

/** What a check of one answer needs: the page, whole. */
async function checkedScenario(scenario: Scenario): Promise<void> {
  const response = await fetch(`${BASE}${scenario.path}`, { headers: scenario.headers, redirect: "manual" });
  const body = await response.text();
  if (!scenario.expect(response.status, body)) {
    throw new Error(`${scenario.label}: unexpected answer ${response.status} ${body.slice(0, 300)}`);
  }
}

async function signedInRuns(): Promise<SignedInRun[]> {
  const runs: SignedInRun[] = [];
  for (const workers of [1, 2]) {
    console.log(`Signed-in pages: the app as ${workers} process${workers > 1 ? "es" : ""}…`);
    const app = await startApp(workers);
    try {
      const loadAverage = os.loadavg()[0]?.toFixed(2) ?? "?";
      const cookie = await signIn();
      const home = await (await fetch(`${BASE}/home`, { headers: { cookie } })).text();
      const postId = home.match(/href="\/post\/([0-9a-f-]{36})"/)?.[1];
      if (!postId) throw new Error("No post on the signed-in /home");
      // The page cache never answers a signed-in page; beside them, the visitors' pages with the cache bypassed.
      const uncached = { cookie: "bench_uncached=1" };
      const page = (status: number, body: string) => status === 200 && body.includes("<article");
      const scenarios: Scenario[] = [
        { label: "/home (signed in)", path: "/home", headers: { cookie }, expect: page },
        { label: "/saved (signed in)", path: "/saved", headers: { cookie }, expect: page },
        {
          label: "/post/{id} (signed in)",
          path: `/post/${postId}`,
          headers: { cookie },
          expect: (status, body) => status === 200 && body.includes("Comments"),
        },
        { label: "/home (visitor, page cache bypassed)", path: "/home", headers: uncached, expect: page },
        {
          label: "/post/{id} (visitor, page cache bypassed)",
          path: `/post/${postId}`,
          headers: uncached,
          expect: (status, body) => status === 200 && body.includes("Comments"),
        },
      ];
      const single: LoadResult[] = [];
      const many: LoadResult[] = [];
      // Warm-up: a server runs for days, so what counts is its steady state. Every page first, so
      // the code they share is compiled and every worker's statements are prepared; two seconds
      // had the first page measured while V8 was still compiling (/home 8.4 ms, then 6.5).
      for (const scenario of scenarios) {
        await checkedScenario(scenario);
        await load(app, scenario, 10, WARM_SECONDS);
      }
      for (const scenario of scenarios) {
        if (workers === 1) {
          console.log(`  ${scenario.label}: 1 connection, ${SECONDS} s`);
          single.push(await load(app, scenario, 1, SECONDS));
        }
        console.log(`  ${scenario.label}: ${CONNECTIONS} connections, ${SECONDS} s`);
        many.push(await load(app, scenario, CONNECTIONS, SECONDS));
      }
      runs.push({ workers, load: loadAverage, single, many });
    } finally {
      await app.stop();
    }
  }
  return runs;
}

function formatSignedIn(label: string, runs: SignedInRun[]): string {
  const lines: string[] = [];
  lines.push(`## Signed-in pages (decision 0354): ${label}${APP_DIR ? `, build of ${APP_DIR}` : ""}`);
  lines.push("");
  lines.push(
    `${new Date().toISOString()} · ${os.cpus().length} cores · Node ${process.version} · NODE_ENV=production · autocannon (bench/load-generator.ts) on the same machine · ${SECONDS} s a run`,
  );
  for (const run of runs) {
    lines.push("");
    lines.push(
      `### ${run.workers} process${run.workers > 1 ? "es" : ""} (load average ${run.load} when it started)`,
    );
    lines.push("");
    lines.push(
      `| page | 1 conn: app CPU ms/page | 1 conn: p50 ms | ${CONNECTIONS} conns: pages/s | ${CONNECTIONS} conns: p95 ms | ${CONNECTIONS} conns: app CPU ms/page | non-2xx | errors |`,
    );
    lines.push("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (const [index, r] of run.many.entries()) {
      const one = run.single[index];
      lines.push(
        `| ${r.label} | ${one ? ms(one.cpuMsPerRequest) : "–"} | ${one ? ms(one.latency.p50) : "–"} | ${r.requestsPerSecond.toFixed(0)} | ${ms(r.latency.p95)} | ${ms(r.cpuMsPerRequest)} | ${r.non2xx} | ${r.errors} |`,
      );
    }
  }
  lines.push("");
  return lines.join("\n");
}

async function main() {
  const target = benchTarget();
  console.log(`Benchmark on ${target.label}, ${os.cpus().length} cores`);
  if (SIGNED_IN_ONLY) {
    const report = formatSignedIn(target.label, await signedInRuns());
    console.log(`\n${report}`);
    await appendResults(`signed-in-${target.kind}.md`, report);
    return;
  }
  console.log("Database: EXPLAIN and the raw SQL floor…");
  const found = await examineDatabase();

  console.log("Starting the built app…");
  const app = await startApp();
  try {
    const cookie = await signIn();
    // What the feed asked for before decision 0106: its route's loader through single fetch.
    const singleFetchPath = `/home.data?cursor=${encodeURIComponent(found.feedCursor)}&_routes=${encodeURIComponent("routes/feed/home")}`;
    // Any cookie but the time zone's keeps a visitor's request out of the page cache (decision 0104):
    // the same visitor page, rendered every time.
    const uncached = { cookie: "bench_uncached=1" };
    const scenarios: Scenario[] = [
      {
        label: "/home (SSR, visitor)",
        path: "/home",
        expect: (status, body) => status === 200 && body.includes("<article"),
      },
      {
        label: "/home (SSR, visitor, page cache bypassed)",
        path: "/home",
        headers: uncached,
        expect: (status, body) => status === 200 && body.includes("<article"),
      },
      {
        label: "/home (SSR, signed in)",
        path: "/home",
        headers: { cookie },
        expect: (status, body) => status === 200 && body.includes("<article"),
      },
      {
        label: "feed data request, page 2 (visitor)",
        path: listPageHref("feed", found.feedCursor),
        expect: (status, body) => status === 200 && body.includes("nextCursor"),
      },
      {
        label: "the same page through React Router single fetch",
        path: singleFetchPath,
        expect: (status, body) => status === 200 && body.includes("nextCursor"),
      },
      {
        label: "/post/{id} (SSR, visitor)",
        path: `/post/${found.postId}`,
        expect: (status, body) => status === 200 && body.includes("Comments"),
      },
      {
        label: "/saved (SSR, signed in)",
        path: "/saved",
        headers: { cookie },
        expect: (status, body) => status === 200 && body.includes("<article"),
      },
    ];
    for (const scenario of scenarios) {
      const response = await fetch(`${BASE}${scenario.path}`, {
        headers: scenario.headers,
        redirect: "manual",
      });
      const body = await response.text();
      if (!scenario.expect(response.status, body)) {
        throw new Error(`${scenario.label}: unexpected answer ${response.status} ${body.slice(0, 300)}`);
      }
      await load(app, scenario, 10, 2); // warm-up
      const probe = await fetch(`${BASE}${scenario.path}`, { headers: scenario.headers, redirect: "manual" });
      await probe.arrayBuffer();
      scenario.pageCache = probe.headers.get("x-page-cache") ?? "—";
    }
    const results: LoadResult[] = [];
    for (const scenario of scenarios) {
      console.log(`  ${scenario.label}: ${CONNECTIONS} connections, ${SECONDS} s`);
      results.push(await load(app, scenario, CONNECTIONS, SECONDS));
    }
    // One request at a time: each request's own time, to set beside the query's own time.
    const single: LoadResult[] = [];
    for (const scenario of scenarios.filter((s) => /^\/(home|api)/.test(s.path))) {
      console.log(`  ${scenario.label}: 1 connection, 5 s`);
      single.push(await load(app, scenario, 1, 5));
    }
    const feedScenario = scenarios.find((s) => s.label.startsWith("feed data request"));
    if (!feedScenario) throw new Error("No feed data request scenario");
    console.log(
      `  feed data request against its SQL: ${PAIRED_ROUNDS} alternating rounds of ${ROUND_SECONDS} s`,
    );
    const paired = await pairedFeedRounds(app, feedScenario, found.feedQuery);
    const report = formatReport(target.label, found, results, single, paired);
    console.log(`\n${report}`);
    const file = path.join("bench", "results", `${target.kind}.md`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, report);
    console.log(`Written to ${file}`);
  } finally {
    await app.stop();
  }
  const signedIn = formatSignedIn(target.label, await signedInRuns());
  console.log(`\n${signedIn}`);
  await appendResults(`signed-in-${target.kind}.md`, signedIn);
}

/** Each run's signed-in figures are kept beside the earlier ones (before and after a change). */
async function appendResults(name: string, report: string): Promise<void> {
  const file = path.join("bench", "results", name);
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${report}\n`);
  console.log(`Added to ${file}`);
}

function formatReport(
  label: string,
  found: DatabaseFindings,
  results: LoadResult[],
  single: LoadResult[],
  paired: PairedRound[] | null,
): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const lines: string[] = [];
  lines.push(`## ${label}`);
  lines.push("");
  lines.push(
    `${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores (${cpu}) · ${Math.round(os.totalmem() / 2 ** 30)} GB · Node ${process.version} · ${found.version.split(",")[0]} · app with NODE_ENV=production · autocannon (bench/load-generator.ts) on the same machine · load average before the run ${LOAD_BEFORE} · feed page size ${found.feedPageSize}`,
  );
  lines.push("");
  lines.push(`### HTTP, ${CONNECTIONS} connections, ${SECONDS} s each`);
  lines.push("");
  lines.push(
    "| request | page cache | req/s | p50 ms | p95 ms | p99 ms | app CPU ms/request | non-2xx | errors |",
  );
  lines.push("|---|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    lines.push(
      `| ${r.label} | ${r.pageCache} | ${r.requestsPerSecond.toFixed(0)} | ${ms(r.latency.p50)} | ${ms(r.latency.p95)} | ${ms(r.latency.p99)} | ${ms(r.cpuMsPerRequest)} | ${r.non2xx} | ${r.errors} |`,
    );
  }
  lines.push("");
  lines.push("### HTTP, 1 connection, 5 s each (one request's own time)");
  lines.push("");
  lines.push("| request | page cache | req/s | p50 ms | p95 ms | p99 ms | app CPU ms/request |");
  lines.push("|---|---|---:|---:|---:|---:|---:|");
  for (const r of single) {
    lines.push(
      `| ${r.label} | ${r.pageCache} | ${r.requestsPerSecond.toFixed(0)} | ${ms(r.latency.p50)} | ${ms(r.latency.p95)} | ${ms(r.latency.p99)} | ${ms(r.cpuMsPerRequest)} |`,
    );
  }
  const feedRequest = single.find((r) => r.label.startsWith("feed data request"));
  const feedFloor = found.floor[0];
  if (paired && paired.length > 0) {
    const ratios = paired.map((round) => round.request.p50 / round.sql.p50);
    const sqlP50 = median(paired.map((round) => round.sql.p50));
    const requestP50 = median(paired.map((round) => round.request.p50));
    lines.push("");
    lines.push(
      `### The feed data request against its SQL, in ${paired.length} alternating rounds of ${ROUND_SECONDS} s (app running)`,
    );
    lines.push("");
    lines.push("| round | SQL p50 ms | request p50 ms | request / SQL |");
    lines.push("|---:|---:|---:|---:|");
    for (const [index, round] of paired.entries()) {
      lines.push(
        `| ${index + 1} | ${ms(round.sql.p50)} | ${ms(round.request.p50)} | ${(ratios[index] ?? Number.NaN).toFixed(2)}× |`,
      );
    }
    lines.push("");
    lines.push(
      `Feed data request against its SQL (decision 0102 target: within 2×): medians of the rounds ${ms(requestP50)} ms / ${ms(sqlP50)} ms = **${(requestP50 / sqlP50).toFixed(2)}×**; rounds from ${Math.min(...ratios).toFixed(2)}× to ${Math.max(...ratios).toFixed(2)}×.`,
    );
  } else if (feedRequest && feedFloor) {
    lines.push("");
    lines.push(
      `Feed data request against its SQL (decision 0102 target: within 2×), the SQL timed before the app started: p50 ${ms(feedRequest.latency.p50)} ms / ${ms(feedFloor.sql.p50)} ms = **${(feedRequest.latency.p50 / feedFloor.sql.p50).toFixed(2)}×** (against the prepared statement's ${ms(feedFloor.prepared.p50)} ms: ${(feedRequest.latency.p50 / feedFloor.prepared.p50).toFixed(2)}×).`,
    );
  }
  lines.push("");
  lines.push(`### The floor: the same SQL run directly, ${SQL_RUNS} times one after another`);
  lines.push("");
  lines.push(
    "| query | SQL p50 ms | SQL p95 ms | SQL p99 ms | prepared p50 ms | prepared p95 ms | built by Drizzle each time p50 ms | queries/s, 10 in flight |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const f of found.floor) {
    lines.push(
      `| ${f.label} | ${ms(f.sql.p50)} | ${ms(f.sql.p95)} | ${ms(f.sql.p99)} | ${ms(f.prepared.p50)} | ${ms(f.prepared.p95)} | ${ms(f.drizzle.p50)} | ${f.concurrentPerSecond.toFixed(0)} |`,
    );
  }
  lines.push("");
  lines.push("### EXPLAIN (ANALYZE, BUFFERS) of every list query");
  for (const e of found.explains) {
    lines.push("");
    lines.push(`**${e.label}**`);
    lines.push("");
    lines.push("```");
    lines.push(e.plan);
    lines.push("```");
  }
  lines.push("");
  return lines.join("\n");
}

await main();
