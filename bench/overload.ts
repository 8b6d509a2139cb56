// The overload run (decision 0107): plants posts as costly as the rules let
// anyone store (MAX_RICH_TEXT_NODES nodes of alternating formats, 500 characters), opens
// the feed that shows them with 200 connections for BENCH_SECONDS, and meanwhile asks
// /healthz one request at a time. Passes when the server keeps answering: /healthz p99
// under 100 ms, no crash, memory bounded. Not a test: `npx tsx bench/overload.ts` after a build.
//
//   npx tsx bench/overload.ts                                               (PGlite, a fresh data dir)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_overload npx tsx bench/overload.ts
//
// The PostgreSQL database must be the run's own (it is emptied of posts first).
// Knobs: BENCH_PORT (4196), BENCH_SECONDS (20), BENCH_CONNECTIONS (200), BENCH_POSTS (60).
import { existsSync, readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { seedCampuses } from "~/server/campuses/campuses";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { posts, user } from "~/server/db/schema";
import {
  MAX_POST_CHARACTERS,
  MAX_RICH_TEXT_NODES,
  type RichTextState,
  richTextToPlainText,
} from "~/server/posts/rich-text.shared";
import { parseRichText } from "~/server/posts/rich-text-schema.shared";
import { startAppProcess } from "../scripts/app-process";
import { builtAppEnv } from "./app";
import autocannon, { type Result as LoadResult } from "./load-generator";

const PORT = Number(process.env.BENCH_PORT ?? 4196);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const POSTS = Number(process.env.BENCH_POSTS ?? 60);
const BASE = `http://localhost:${PORT}`;
const CAMPUS = "ou";
const AUTHOR_ID = "overload-author";

/**
 * The costliest text a student can store now: one paragraph of as many runs as the node cap
 * allows, neighbours in different formats so none merge, filled to 500 characters.
 */
export function maximalPostText(): RichTextState {
  const runs = MAX_RICH_TEXT_NODES - 1;
  const base = Math.floor(MAX_POST_CHARACTERS / runs);
  let spare = MAX_POST_CHARACTERS - base * runs;
  const children = Array.from({ length: runs }, (_, i) => {
    const length = base + (spare-- > 0 ? 1 : 0);
    return {
      type: "text" as const,
      version: 1,
      text: String.fromCharCode(97 + (i % 26)).repeat(Math.max(1, length)),
      format: i % 2 === 0 ? 0b11111111 : 0b01111111,
      detail: 0,
      mode: "normal" as const,
      style: "",
    };
  });
  const state = {
    root: {
      type: "root",
      version: 1,
      direction: null,
      format: "",
      indent: 0,
      children: [{ type: "paragraph", version: 1, direction: null, format: "", indent: 0, children }],
    },
  };
  const parsed = parseRichText(JSON.stringify(state));
  if (!parsed.ok || !parsed.state) throw new Error("The maximal post is refused by the rules");
  return parsed.state;
}

async function plant(dataDir: string, databaseUrl: string | null): Promise<void> {
  const database = await openDatabase({ dataDir, databaseUrl });
  try {
    await migrateDatabase(database);
    // The app writes each campus's privacy at start, from PUBLIC_CAMPUSES below (decision 0135).
    await seedCampuses(database.db, []);
    const text = maximalPostText();
    const now = new Date();
    await database.db.execute(sql`delete from posts where author_id = ${AUTHOR_ID}`);
    await database.db
      .insert(user)
      .values({
        id: AUTHOR_ID,
        name: "Olive Overload",
        email: "overload@bench.example.edu",
        verified: true,
        firstName: "Olive",
        lastName: "Overload",
        username: "oliveoverload",
        campusId: CAMPUS,
        schoolEmail: "overload@ou.edu",
        schoolVerified: true,
        profileSetUp: true,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    await database.db.insert(posts).values(
      Array.from({ length: POSTS }, () => ({
        campusId: CAMPUS,
        type: "post" as const,
        authorId: AUTHOR_ID,
        text,
        textPlain: richTextToPlainText(text),
      })),
    );
  } finally {
    await database.close();
  }
}

function rssMegabytes(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

async function main() {
  if (!existsSync("build/server/index.js")) throw new Error("No build: run `npm run build` first.");
  const databaseUrl = process.env.DATABASE_URL?.trim() || null;
  const dataDir = path.join(os.tmpdir(), "cbs-overload");
  if (!databaseUrl) rmSync(dataDir, { recursive: true, force: true });
  await plant(dataDir, databaseUrl);

  const app = await startAppProcess({
    env: {
      ...builtAppEnv(PORT),
      LOG_LEVEL: "warn",
      // Every request renders: the campus is open to visitors (decision 0135) and nothing is cached.
      PUBLIC_CAMPUSES: CAMPUS,
      PAGE_CACHE_SECONDS: "0",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
    },
    port: PORT,
    output: "inherit",
    startTimeoutMs: 120_000,
  });
  const page = await (await fetch(`${BASE}/home`)).text();
  const shown = page.split("Olive").length - 1;
  if (shown === 0) throw new Error("The feed does not show the planted posts");

  const rssBefore = rssMegabytes(app.pid);
  let rssMax = rssBefore;
  const health: number[] = [];
  let healthFailures = 0;
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${BASE}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        if (response.ok) health.push(performance.now() - started);
        else healthFailures += 1;
      } catch {
        healthFailures += 1;
      }
      rssMax = Math.max(rssMax, rssMegabytes(app.pid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  const result = await new Promise<LoadResult>((resolve, reject) => {
    autocannon(
      {
        url: `${BASE}/home`,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 20,
        headers: { "accept-encoding": "gzip, deflate, br, zstd" },
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
  });
  running = false;
  await probe;
  const alive =
    app.exited() === null &&
    (await fetch(`${BASE}/healthz`)
      .then((r) => r.ok)
      .catch(() => false));

  const sorted = [...health].sort((a, b) => a - b);
  const statuses = result.statusCodeStats;
  const report = {
    date: new Date().toISOString(),
    database: databaseUrl ? "postgres" : "pglite",
    cpu: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}`,
    plantedPosts: POSTS,
    postCost: {
      nodes: MAX_RICH_TEXT_NODES,
      characters: MAX_POST_CHARACTERS,
      jsonBytes: JSON.stringify(maximalPostText()).length,
    },
    connections: CONNECTIONS,
    seconds: SECONDS,
    home: {
      requests: result.requests.total ?? Math.round(result.requests.average * SECONDS),
      perSecond: result.requests.average,
      statuses: Object.fromEntries(Object.entries(statuses).map(([code, stat]) => [code, stat.count])),
      errors: result.errors,
      timeouts: result.timeouts,
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      pageBytes: page.length,
    },
    healthz: {
      samples: health.length,
      failures: healthFailures,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? Number.NaN,
    },
    rssMb: { before: Math.round(rssBefore), max: Math.round(rssMax) },
    alive,
  };
  const met = alive && report.healthz.p99 < 100 && healthFailures === 0;
  console.log(JSON.stringify(report, null, 2));
  console.log(met ? "overload: MET (healthz p99 < 100 ms, no failure, still alive)" : "overload: NOT MET");
  await mkdir("bench/results", { recursive: true });
  await writeFile(`bench/results/overload-${report.database}.json`, `${JSON.stringify(report, null, 2)}\n`);

  await app.stop(2_000);
  process.exit(met ? 0 : 1);
}

await main();
