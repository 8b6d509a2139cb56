// Decision 0551: the operator console's dashboard (getDashboard: every problem's query and the
// campuses' counts) on PostgreSQL with the bench data, against p95 ≤ 150 ms. Not a test: nothing
// here runs in `npm test`.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_admin
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_admin npx tsx bench/admin-dashboard.ts
//
// Data (made once, over the last 90 days): BENCH_USERS (5,000) users, BENCH_POSTS (100,000)
// listings and 3 comments each, BENCH_MESSAGES (1,000,000) chat messages, BENCH_NOTIFICATIONS
// (1,000,000) notifications, 10,000 open moderation items, a week of job runs (the mail job every
// 2 s: 302,400 rows, and the others), 100,000 outbox mails, 5,000 ads with their payments and
// refunds. Knobs: BENCH_SQL_RUNS (300). Each row carries the 1-minute load average when it finished.
import os from "node:os";
import { sql } from "drizzle-orm";
import { getDashboard } from "~/server/admin/dashboard";
import { seedCampuses } from "~/server/campuses/campuses";
import { loadConfig } from "~/server/config";
import type { AppContext } from "~/server/context";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { benchTarget } from "./database";

const USERS = Number(process.env.BENCH_USERS ?? 5_000);
const POSTS = Number(process.env.BENCH_POSTS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_SQL_RUNS ?? 300);
const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const target = benchTarget();
if (target.kind !== "postgres") throw new Error("Decision 0551 measures PostgreSQL: set DATABASE_URL.");
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
const { db } = database;

async function step(label: string, statement: ReturnType<typeof sql>) {
  const started = performance.now();
  await db.execute(statement);
  console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`);
}

try {
  await migrateDatabase(database);
  await seedCampuses(db, []);
  const counted = (await db.execute(
    sql`select count(*)::int as count from "user" where id like 'ad-%'`,
  )) as unknown as {
    rows: { count: number }[];
  };
  if ((counted.rows[0]?.count ?? 0) === 0) {
    console.log(
      `Generating the bench data (${USERS} users, ${POSTS} listings, ${MESSAGES} messages, ${NOTIFICATIONS} notifications)…`,
    );
    await step(
      "users",
      sql`
      with campus as (select id, row_number() over (order by id) - 1 as n from campuses where not generic)
      insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified, created_at)
      select 'ad-' || g, 'A D.', 'ad-' || g || '@bench.example.edu', 'A', 'D.', 'adbench' || g,
        (select id from campus where n = g % (select count(*) from campus)), true, g % 3 <> 0,
        now() - (g % 90 || ' days')::interval - (g % 1440 || ' minutes')::interval
      from generate_series(0, ${USERS - 1}) g`,
    );
    // The search-term dictionary's trigger (decision 0191) costs more than the rest together here
    // and plays no part in the dashboard: off while the rows go in, on again after.
    await step("term trigger off", sql`alter table posts disable trigger posts_search_terms_track`);
    await step(
      "listings",
      sql`
      insert into posts (campus_id, type, author_id, text, text_plain, created_at, last_modified)
      select u.campus_id, 'post', u.id, '{}'::jsonb, 'Listing ' || g,
        now() - (g * 77.76 || ' seconds')::interval, now() - (g * 77.76 || ' seconds')::interval
      from generate_series(0, ${POSTS - 1}) g join "user" u on u.id = 'ad-' || (g % ${USERS})`,
    );
    await step(
      "comments",
      sql`
      insert into posts (campus_id, type, author_id, text, text_plain, parent_id, root_id, created_at, last_modified)
      select p.campus_id, 'post', p.author_id, '{}'::jsonb, 'Comment', p.id, p.id,
        p.created_at + (c || ' minutes')::interval, p.created_at + (c || ' minutes')::interval
      from posts p, generate_series(1, 3) c where p.parent_id is null`,
    );
    await step("term trigger on", sql`alter table posts enable trigger posts_search_terms_track`);
    await step(
      "chats and messages",
      sql`
      with made as (
        insert into chats (campus_id, from_user_id, to_user_id)
        select u.campus_id, u.id, 'ad-' || ((g + 1) % ${USERS}) from generate_series(0, ${USERS - 1}) g
        join "user" u on u.id = 'ad-' || g
        returning id, campus_id, from_user_id
      )
      insert into chat_messages (chat_id, campus_id, sender_id, seq, text, created_at)
      select m.id, m.campus_id, m.from_user_id, s, 'Is it still available?', now() - (s || ' minutes')::interval
      from made m, generate_series(1, ${Math.ceil(MESSAGES / USERS)}) s`,
    );
    await step(
      "notifications",
      sql`
      insert into notifications (campus_id, user_id, actor_id, type, read, created_at)
      select u.campus_id, u.id, 'ad-' || ((g + 7) % ${USERS}), 'like', g % 10 <> 0, now() - (g % 129600 || ' minutes')::interval
      from generate_series(0, ${NOTIFICATIONS - 1}) g join "user" u on u.id = 'ad-' || (g % ${USERS})`,
    );
    await step(
      "moderation items",
      sql`
      insert into moderation_items (campus_id, target_kind, target_id, target_user_id, weight, reporters, opened_at)
      select u.campus_id, 'user', 'ad-target-' || g, u.id, 1, 1, now() - (g * 1.44 || ' minutes')::interval
      from generate_series(0, 9999) g join "user" u on u.id = 'ad-' || (g % ${USERS})`,
    );
    await step(
      "a week of job runs",
      sql`
      insert into job_runs (job, process, started_at, finished_at, outcome)
      select 'deliver-mail', 'bench:1', now() - (g * 2 || ' seconds')::interval, now() - (g * 2 || ' seconds')::interval, 'succeeded'
      from generate_series(0, 302399) g
      union all
      select 'expire-ads', 'bench:1', now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval,
        case when g % 500 = 0 then 'failed' else 'succeeded' end
      from generate_series(0, 10079) g
      union all
      select j, 'bench:1', now() - (g || ' hours')::interval, now() - (g || ' hours')::interval, 'succeeded'
      from generate_series(0, 167) g, unnest(array['prune-realtime-backlog', 'prune-job-runs']) j`,
    );
    await step(
      "outbox",
      sql`
      insert into mail_outbox (campus_id, kind, "to", subject, html, text, status, attempts, next_attempt_at, created_at, sent_at, last_error)
      select 'ou', 'notifications', 'ad-' || (g % ${USERS}) || '@bench.example.edu', 'New activity', '<p>…</p>', '…',
        case when g % 200 = 0 then 'failed' when g % 50 = 0 then 'dropped' else 'sent' end, 1,
        now() - (g * 30 || ' seconds')::interval + interval '10 minutes', now() - (g * 30 || ' seconds')::interval,
        now() - (g * 30 || ' seconds')::interval, case when g % 200 = 0 then '550 no such mailbox' end
      from generate_series(0, 99999) g`,
    );
    await step(
      "ads, checkouts, payments",
      sql`
      with made as (
        insert into ads (campus_id, post_id, user_id, cta_type, cta_label, days, amount_budgeted, status, start_time)
        select p.campus_id, p.id, p.author_id, 'message', 'Message', 7, 700,
          case when n % 4 = 0 then 'active' else 'completed' end, p.created_at
        from (select id, campus_id, author_id, created_at, row_number() over (order by id) as n
          from posts where parent_id is null limit 5000) p
        returning id, campus_id, user_id, start_time
      ), checkouts as (
        insert into checkout_sessions (id, ad_id, user_id, campus_id, provider, amount_total, status, success_url, cancel_url, created_at, expires_at)
        select 'cs_bench_' || m.id, m.id, m.user_id, m.campus_id, 'stripe', 700, 'complete', 'http://x/s', 'http://x/c', m.start_time, m.start_time + interval '1 day'
        from made m returning id
      )
      insert into payments (user_id, campus_id, ad_id, kind, amount, provider, description, created_at)
      select user_id, campus_id, id, 'payment', 700, 'stripe', 'Boost', start_time from made
      union all
      select user_id, campus_id, id, 'refund', 200, 'stripe', 'Refund', start_time + interval '2 days'
      from made where abs(hashtext(id::text)) % 10 = 0`,
    );
    await step("analyze", sql`analyze`);
  }
  const config = {
    ...loadConfig({ APP_SECRET: "bench-secret-bench-secret-bench", DATA_DIR: target.dataDir }),
    stripeSecretKey: "sk_bench",
  };
  const ctx = {
    db,
    clock: { now: () => new Date() },
    config,
    startedAt: new Date(),
  } as unknown as AppContext;
  const admin = { id: "ad-0" };
  await db.execute(sql`
    insert into staff_roles (user_id, role, campus_id, source, granted_at)
    values ('ad-0', 'site_admin', null, 'command', now()) on conflict do nothing`);
  for (let index = 0; index < 20; index++) await getDashboard(ctx, admin);
  const samples: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    const started = performance.now();
    await getDashboard(ctx, admin);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const dashboard = await getDashboard(ctx, admin);
  console.log(`problems now: ${dashboard.problems.map((problem) => problem.kind).join(", ") || "none"}`);
  console.log("| dashboard (getDashboard) | p50 ms | p95 ms | p99 ms | load |");
  console.log("|---|---|---|---|---|");
  console.log(
    `| ${new Date().toISOString().slice(0, 10)}, ${RUNS} runs | ${percentile(samples, 50).toFixed(2)} | ${percentile(samples, 95).toFixed(2)} | ${percentile(samples, 99).toFixed(2)} | ${load()} |`,
  );
} finally {
  await database.close();
}
