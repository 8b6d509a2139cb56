// Decision 0541: the moderation queue's first page at 10,000 open items across the 14 campuses,
// on PostgreSQL, measured through listQueue itself (the item page of /mod: the page's query and
// its batched reads of reasons, reporters and excerpts). Not a test: nothing here runs in `npm test`.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_mod
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_mod npx tsx bench/moderation-queue.ts
//
// Knobs: BENCH_SQL_RUNS (300). Each row carries the 1-minute load average when it finished.
import os from "node:os";
import { sql } from "drizzle-orm";
import { seedCampuses } from "~/server/campuses/campuses";
import { CampusDirectory } from "~/server/campuses/directory";
import type { AppContext } from "~/server/context";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { listQueue, readQueueFilters } from "~/server/moderation/queue";
import { benchTarget } from "./database";

const ITEMS = 10_000;
const USERS = 3_000;
const RUNS = Number(process.env.BENCH_SQL_RUNS ?? 300);
const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const target = benchTarget();
if (target.kind !== "postgres") throw new Error("Decision 0541 measures PostgreSQL: set DATABASE_URL.");
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
const { db } = database;
try {
  await migrateDatabase(database);
  await seedCampuses(db, []);
  const counted = (await db.execute(sql`select count(*)::int as count from moderation_items`)) as unknown as {
    rows: { count: number }[];
  };
  if ((counted.rows[0]?.count ?? 0) === 0) {
    console.log(`Generating ${USERS} users and ${ITEMS} open items with their reports…`);
    await db.execute(sql`
      with campus as (select id, row_number() over (order by id) - 1 as n from campuses where not generic)
      insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified)
      select 'mq-' || g, 'M Q.', 'mq-' || g || '@bench.example.edu', 'M', 'Q.', 'mqbench' || g,
        (select id from campus where n = g % (select count(*) from campus)), true, true
      from generate_series(0, ${USERS - 1}) g
      on conflict do nothing`);
    // One item per member profile and synthetic target, over the last 10 days; 1 to 3 reports each.
    await db.execute(sql`
      insert into moderation_items (campus_id, target_kind, target_id, target_user_id, weight, reporters, to_admins, opened_at)
      select u.campus_id, 'user', 'mq-target-' || g, u.id, 1 + g % 3, 1 + g % 3, g % 10 = 0,
        now() - (g || ' minutes')::interval * 1.44
      from generate_series(0, ${ITEMS - 1}) g
      join "user" u on u.id = 'mq-' || (g % ${USERS})`);
    await db.execute(sql`
      insert into reports (campus_id, reporter_id, reported_user_id, target_kind, target_id, item_id, reason, weight, created_at)
      select i.campus_id, 'mq-' || ((abs(hashtext(i.id::text)) + r) % ${USERS}), i.target_user_id, 'user', i.target_id, i.id,
        (array['scam','prohibited','harassment','spam','inappropriate','other'])[1 + (abs(hashtext(i.id::text)) + r) % 6],
        1, i.opened_at
      from moderation_items i, generate_series(0, 2) r
      where r < i.reporters
      on conflict do nothing`);
    await db.execute(sql`analyze`);
  }
  const campuses = new CampusDirectory(db, {});
  await campuses.refresh();
  const ctx = { db, clock: { now: () => new Date() }, campuses } as unknown as AppContext;
  // Staff: a site admin and OU's moderator, as rows.
  await db.execute(sql`
    insert into staff_roles (user_id, role, campus_id, source, granted_at)
    values ('mq-0', 'site_admin', null, 'command', now()), ('mq-1', 'campus_moderator', 'ou', 'command', now())
    on conflict do nothing`);
  console.log("| queue first page | p50 ms | p95 ms | p99 ms | load |");
  console.log("|---|---|---|---|---|");
  for (const [label, viewer, filters] of [
    ["site admin, every campus", { id: "mq-0" }, readQueueFilters({})],
    ["site admin, one campus", { id: "mq-0" }, readQueueFilters({ campus: "ut" })],
    ["site admin, reason 'scam'", { id: "mq-0" }, readQueueFilters({ reason: "scam" })],
    ["OU moderator", { id: "mq-1" }, readQueueFilters({})],
  ] as const) {
    for (let index = 0; index < 20; index++) await listQueue(ctx, viewer, filters);
    const samples: number[] = [];
    for (let index = 0; index < RUNS; index++) {
      const started = performance.now();
      await listQueue(ctx, viewer, filters);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    console.log(
      `| ${label} | ${percentile(samples, 50).toFixed(2)} | ${percentile(samples, 95).toFixed(2)} | ${percentile(samples, 99).toFixed(2)} | ${load()} |`,
    );
  }
} finally {
  await database.close();
}
