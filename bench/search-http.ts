// The search benchmark through HTTP (decision 0190): the built app (`node main.js`, started as
// bench/run.ts starts it) on the database bench/search.ts filled, driven with autocannon: the
// /search?q=… page server-rendered (the first page of the Latest tab) and the data request the
// tab's infinite scroll fetches for the next page (`/search/data?kind=latest&q=…&cursor=…`),
// for a common word, a rare word and a two-typo word. Not a test: after `npx react-router build`.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_search npx tsx bench/search-http.ts
//   DATA_DIR=/tmp/cbs-bench-search npx tsx bench/search-http.ts        (PGlite)
//
// Knobs: BENCH_PORT (4196), BENCH_SECONDS (10), BENCH_CONNECTIONS (1: the time of one request,
// not its wait behind others on a small shared machine; raise it for throughput). The report is
// appended to bench/results/search-{postgres,pglite}.md.
import { appendFileSync } from "node:fs";
import os from "node:os";
import { sql } from "drizzle-orm";
import { openDatabase } from "~/server/db/client";
import { searchPosts } from "~/server/search/posts";
import { rowsOf } from "~/server/search/terms";
import { startAppProcess } from "../scripts/app-process";
import { builtAppEnv } from "./app";
import { benchTarget } from "./database";
import autocannon from "./load-generator";
import { searchBenchContext } from "./search";

const PORT = Number(process.env.BENCH_PORT ?? 4196);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const CAMPUS = "ou";
const BASE = `http://localhost:${PORT}`;

interface Scenario {
  label: string;
  path: string;
  expect: (body: string) => boolean;
}

/** The queries, and the cursor of each one's second page, read before the app holds the database. */
async function prepare(): Promise<Scenario[]> {
  const target = benchTarget();
  const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  try {
    const terms = rowsOf<{ term: string; doc_count: number }>(
      await database.db.execute(sql`
        (select term, doc_count from search_terms where campus_id = ${CAMPUS} and char_length(term) >= 4
          order by doc_count desc limit 1)
        union all
        (select term, doc_count from search_terms where campus_id = ${CAMPUS} and doc_count between 12 and 30
          and char_length(term) >= 9 order by term limit 1)`),
    );
    const [common, rare] = terms.map((row) => row.term);
    if (!common || !rare) throw new Error("No search data: run bench/search.ts first.");
    // Two typos in the rare word: two neighbours swapped at each end.
    const chars = [...rare];
    [chars[0], chars[1]] = [chars[1] ?? "", chars[0] ?? ""];
    const n = chars.length;
    [chars[n - 2], chars[n - 1]] = [chars[n - 1] ?? "", chars[n - 2] ?? ""];
    const twoTypos = chars.join("");
    const ctx = await searchBenchContext(database, target.dataDir);
    const scenarios: Scenario[] = [];
    for (const [label, q] of [
      ["common word", common],
      ["rare word", rare],
      ["two typos", twoTypos],
    ] as const) {
      const encoded = encodeURIComponent(q);
      scenarios.push({
        label: `/search SSR, ${label} (\`${q}\`)`,
        path: `/search?q=${encoded}`,
        expect: (body) => body.includes("<article"),
      });
      const first = await searchPosts(ctx, null, { campusId: CAMPUS, q, show: "latest" });
      if (first.nextCursor) {
        scenarios.push({
          label: `next page (data request), ${label}`,
          path: `/search/data?kind=latest&q=${encoded}&cursor=${encodeURIComponent(first.nextCursor)}`,
          expect: (body) => body.includes('"items":[{'),
        });
      }
    }
    return scenarios;
  } finally {
    await database.close();
  }
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] ?? 0 };
}

async function load(scenario: Scenario, seconds: number) {
  const samples: number[] = [];
  const result = await new Promise<import("autocannon").Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${BASE}${scenario.path}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { "accept-encoding": "gzip, deflate, br, zstd" },
        timeout: 30,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => samples.push(responseTime));
  });
  return {
    rps: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors,
    ...percentiles(samples),
  };
}

async function main() {
  const target = benchTarget();
  console.log(`Search over HTTP on ${target.label}`);
  const scenarios = await prepare();
  const app = await startAppProcess({
    env: {
      ...builtAppEnv(PORT),
      LOG_LEVEL: "warn",
      PUBLIC_CAMPUSES: CAMPUS,
      ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { DATA_DIR: target.dataDir }),
    },
    port: PORT,
    output: "inherit",
    startTimeoutMs: 120_000,
  });
  const lines = [
    "",
    `### HTTP, ${new Date().toISOString().slice(0, 10)} (${CONNECTIONS} connections, ${SECONDS} s each, built app)`,
    "",
    "| request | load avg (1 min) before | req/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx |",
    "|---|---|---|---|---|---|---|---|",
  ];
  try {
    for (const scenario of scenarios) {
      const check = await fetch(`${BASE}${scenario.path}`);
      const body = await check.text();
      if (check.status !== 200 || !scenario.expect(body))
        throw new Error(`${scenario.path} answered ${check.status}: ${body.slice(0, 300)}`);
      await load(scenario, 2); // warm-up, not reported
      const loadBefore = os.loadavg()[0]?.toFixed(1) ?? "?";
      const r = await load(scenario, SECONDS);
      const ms = (value: number) => value.toFixed(1);
      const row = `| ${scenario.label} | ${loadBefore} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.non2xx} |`;
      console.log(row);
      lines.push(row);
    }
  } finally {
    await app.stop();
  }
  const file = `bench/results/search-${target.kind}.md`;
  appendFileSync(file, `${lines.join("\n")}\n`);
  console.log(`Appended to ${file}`);
}

await main();
