// Decision 0330: the notification list and the unread count at a million notifications, on
// PostgreSQL, measured as SQL (the queries the app runs, from server/notifications/notifications.ts)
// and notify()'s own cost inside a write. Not a test: nothing here runs in `npm test`.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_notif
//   npx react-router build   # the HTTP part starts the built app (scripts/app-process.ts)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_notif npx tsx bench/notifications.ts
//
// Knobs: BENCH_SQL_RUNS (300), BENCH_HTTP (1; 0 skips the app), BENCH_PORT (4267),
// BENCH_SECONDS (10). Every row carries the 1-minute load average when it finished: the
// machine is shared, so compare rows taken together (before and after, alternating).
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import os from "node:os";
import { makeSignature } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { seedCampuses } from "~/server/campuses/campuses";
import { loadConfig } from "~/server/config";
import type { AppContext } from "~/server/context";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { createLogger } from "~/server/logger";
import { notificationQueries } from "~/server/notifications/notifications";
import { notify } from "~/server/notifications/notify";
import { startAppProcess } from "../scripts/app-process";
import { builtAppEnv } from "./app";
import { benchTarget } from "./database";
import autocannon, { type Result as LoadResult } from "./load-generator";

const USERS = 5_000;
const NOTIFICATIONS = 1_000_000;
const RUNS = Number(process.env.BENCH_SQL_RUNS ?? 300);
const HTTP = process.env.BENCH_HTTP !== "0";
const PORT = Number(process.env.BENCH_PORT ?? 4267);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SECRET = "notifications-bench-secret-0123456789abcdef";
/** Signed-in users the HTTP part spreads its requests over. */
const HTTP_USERS = 200;

const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function time(label: string, run: (index: number) => Promise<unknown>): Promise<void> {
  for (let index = 0; index < 20; index++) await run(index); // warm
  const samples: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    const started = performance.now();
    await run(index);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  console.log(
    `| ${label} | ${percentile(samples, 50).toFixed(2)} | ${percentile(samples, 95).toFixed(2)} | ${percentile(samples, 99).toFixed(2)} | ${load()} |`,
  );
}

const target = benchTarget();
if (target.kind !== "postgres") throw new Error("Decision 0330 measures PostgreSQL: set DATABASE_URL.");
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
const { db } = database;
try {
  await migrateDatabase(database);
  await seedCampuses(db, []);
  const counted = (await db.execute(sql`select count(*)::int as count from notifications`)) as unknown as {
    rows: { count: number }[];
  };
  const existing = counted.rows[0];
  if ((existing?.count ?? 0) === 0) {
    console.log(`Generating ${USERS} users and ${NOTIFICATIONS} notifications…`);
    await db.execute(sql`
      insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified)
      select 'nb-' || g, 'N B.', 'nb-' || g || '@bench.example.edu', 'N', 'B.', 'nbench' || g, 'ou', true, true
      from generate_series(0, ${USERS - 1}) g
      on conflict do nothing`);
    // 200 per user, one in ten unread, over a year.
    await db.execute(sql`
      insert into notifications (campus_id, user_id, actor_id, type, read, emailed_at, created_at)
      select 'ou', 'nb-' || (g % ${USERS}), 'nb-' || ((g * 7 + 1) % ${USERS}),
        (array['like','comment','comment reply','message'])[1 + g % 4], g % 10 <> 0, now(),
        now() - (g * interval '30 seconds')
      from generate_series(1, ${NOTIFICATIONS}) g`);
    await db.execute(sql`analyze`);
  }
  console.log(`\n${target.label}, ${NOTIFICATIONS} notifications, ${RUNS} runs (ms)\n`);
  console.log("| query | p50 | p95 | p99 | load |\n|---|---|---|---|---|");
  const userOf = (index: number) => `nb-${(index * 37) % USERS}`;
  // Decision 0546: the clock's now, against which authors' suspensions are compared.
  const now = new Date().toISOString();
  await time("unread count (badge)", (index) => notificationQueries.unread(db, userOf(index)));
  await time("list, first page", (index) =>
    notificationQueries.page(db, { userId: userOf(index), key: null, size: 15, now }),
  );
  const found = (await db.execute(
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as time, id::text as id
        from notifications where user_id = 'nb-0' order by created_at desc, id desc offset 100 limit 1`,
  )) as unknown as { rows: { time: string; id: string }[] };
  const cursor = found.rows[0];
  await time("list, a later page", (index) =>
    notificationQueries.page(db, {
      userId: userOf(index),
      key: cursor ? { time: cursor.time, id: cursor.id } : null,
      size: 15,
      now,
    }),
  );
  // notify() inside a transaction (row, realtime event, e-mail queue check), rolled back.
  const ctx = {
    config: loadConfig({ ...process.env, NOTIFICATION_EMAIL_DELAY: "120" }),
    db,
    clock: { now: () => new Date() },
    log: createLogger("silent"),
  } as unknown as AppContext;
  class Rollback extends Error {}
  await time("a write with notify() (rolled back)", async (index) => {
    await db
      .transaction(async (tx) => {
        await notify(tx, ctx, {
          type: "comment",
          to: userOf(index),
          actorId: userOf(index + 1),
          campusId: "ou",
        });
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
  });
  await time("the same write without notify() (rolled back)", async () => {
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
  });
  if (HTTP) await measureHttp();
} finally {
  await database.close();
}

/**
 * The list through the built app (NODE_ENV=production): the /notifications page (SSR) and its
 * data request (a client-side navigation's `.data`), each under autocannon on one connection
 * (a request's own latency) and on ten (with queueing), spread over HTTP_USERS signed-in users
 * whose sessions are written directly and signed as better-auth signs them. Opening the list
 * marks what it lists read, as the app does.
 */
async function measureHttp(): Promise<void> {
  const now = new Date();
  const cookies: string[] = [];
  await db.execute(sql`update "user" set profile_set_up = true where id like 'nb-%' and not profile_set_up`);
  await db.execute(sql`delete from session where id like 'nb-session-%'`);
  for (let n = 0; n < HTTP_USERS; n++) {
    const token = randomBytes(24).toString("base64url");
    await db.execute(sql`
      insert into session (id, token, user_id, expires_at, created_at, updated_at)
      values (${`nb-session-${n}`}, ${token}, ${`nb-${n * 23}`}, ${new Date(now.getTime() + 86_400_000).toISOString()}::timestamptz,
        ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`);
    cookies.push(
      // Production cookies are Secure, and so carry the __Secure- prefix.
      `__Secure-better-auth.session_token=${encodeURIComponent(`${token}.${await makeSignature(token, SECRET)}`)}`,
    );
  }
  const app = await startAppProcess({
    env: {
      ...builtAppEnv(PORT, SECRET),
      LOG_LEVEL: "warn",
      // One process, so its CPU time per request can be read from /proc (load elsewhere does not change it).
      WORKERS: "1",
      DATABASE_URL: target.databaseUrl ?? "",
    },
    port: PORT,
    output: "inherit",
    startTimeoutMs: 120_000,
  });
  try {
    // The signed-in list itself, not a redirect to the visitor's home page.
    const check = await fetch(app.url("/notifications"), {
      headers: { cookie: cookies[0] ?? "" },
      redirect: "manual",
    });
    const body = await check.text();
    if (check.status !== 200 || !body.includes('<ul aria-label="Notifications"')) {
      throw new Error(`GET /notifications answered ${check.status}, not the list`);
    }
    // A redirect of a data request answers 202 with where to go; the list answers 200.
    const data = await fetch(app.url("/notifications.data"), { headers: { cookie: cookies[0] ?? "" } });
    await data.text();
    if (data.status !== 200) throw new Error(`GET /notifications.data answered ${data.status}`);
    console.log(`\nThe built app, ${HTTP_USERS} users, ${SECONDS} s each (ms)\n`);
    console.log(
      "| request | connections | req/s | p50 | p95 | p99 | app CPU ms/request | load |\n|---|---|---|---|---|---|---|---|",
    );
    for (const path of ["/notifications", "/notifications.data"]) {
      for (const connections of [1, 10]) {
        let next = 0;
        const samples: number[] = [];
        const cpuBefore = await cpuSeconds(app.pid);
        const result = await new Promise<LoadResult>((resolve, reject) => {
          const instance = autocannon(
            {
              url: app.url(path),
              connections,
              duration: SECONDS,
              headers: { "accept-encoding": "gzip, deflate, br, zstd" },
              requests: [
                {
                  method: "GET",
                  setupRequest: (request) => ({
                    ...request,
                    headers: { ...request.headers, cookie: cookies[next++ % cookies.length] ?? "" },
                  }),
                },
              ],
            },
            (error, done) => (error ? reject(error) : resolve(done)),
          );
          instance.on("response", (_client, _status, _bytes, ms) => samples.push(ms));
        });
        const cpuMs = (((await cpuSeconds(app.pid)) - cpuBefore) * 1000) / Math.max(1, samples.length);
        samples.sort((a, b) => a - b);
        const bad = result.non2xx + result.errors;
        console.log(
          `| GET ${path} | ${connections} | ${Math.round(result.requests.average)} | ${percentile(samples, 50).toFixed(1)} | ${percentile(samples, 95).toFixed(1)} | ${percentile(samples, 99).toFixed(1)} | ${cpuMs.toFixed(1)} | ${load()} |${bad > 0 ? ` ${bad} failed` : ""}`,
        );
      }
    }
  } finally {
    await app.stop();
  }
}

/** CPU seconds a process has used (user + system), from /proc (Linux; USER_HZ = 100). */
async function cpuSeconds(pid: number | undefined): Promise<number> {
  if (!pid) return Number.NaN;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
