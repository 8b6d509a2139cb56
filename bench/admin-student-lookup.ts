// Decision 0561: the console's student lookup (searchStudents: exact e-mail, school e-mail,
// username or id, each on its unique index) with 100,000 accounts, on PostgreSQL, measured through
// the domain function itself (the site-admin check included). Not a test: nothing here runs in
// `npm test`. Target: p95 ≤ 30 ms.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_people
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_people npx tsx bench/admin-student-lookup.ts
//
// Knobs: BENCH_USERS (100000), BENCH_SQL_RUNS (300). Each row carries the 1-minute load average.
import os from "node:os";
import { sql } from "drizzle-orm";
import { searchStudents } from "~/server/admin/students";
import { seedCampuses } from "~/server/campuses/campuses";
import type { AppContext } from "~/server/context";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { benchTarget } from "./database";

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const RUNS = Number(process.env.BENCH_SQL_RUNS ?? 300);
const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const target = benchTarget();
if (target.kind !== "postgres") throw new Error("Decision 0561 measures PostgreSQL: set DATABASE_URL.");
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
const { db } = database;
try {
  await migrateDatabase(database);
  await seedCampuses(db, []);
  const counted = (await db.execute(
    sql`select count(*)::int as count from "user" where id like 'sl-%'`,
  )) as unknown as {
    rows: { count: number }[];
  };
  if ((counted.rows[0]?.count ?? 0) < USERS) {
    console.log(`Generating ${USERS} accounts…`);
    await db.execute(sql`
      with campus as (select id, row_number() over (order by id) - 1 as n from campuses where not generic)
      insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified,
        school_verified, school_email)
      select 'sl-' || g, 'S L.', 'sl-' || g || '@bench.example.com', 'S', 'L.', 'slbench' || g,
        (select id from campus where n = g % (select count(*) from campus)), true, g % 2 = 0,
        case when g % 2 = 0 then 'sl-' || g || '@school.bench.edu' end
      from generate_series(0, ${USERS - 1}) g
      on conflict do nothing`);
    await db.execute(sql`analyze "user"`);
  }
  await db.execute(sql`
    insert into staff_roles (user_id, role, campus_id, source, granted_at)
    values ('sl-0', 'site_admin', null, 'command', now())
    on conflict do nothing`);
  const ctx = { db, clock: { now: () => new Date() } } as unknown as AppContext;
  const admin = { id: "sl-0" };
  const pick = () => Math.floor(Math.random() * USERS);
  console.log(
    `| student lookup (${USERS.toLocaleString("en-US")} accounts) | p50 ms | p95 ms | p99 ms | load |`,
  );
  console.log("|---|---|---|---|---|");
  for (const [label, query] of [
    ["e-mail", (n: number) => `SL-${n}@Bench.Example.com`],
    ["school e-mail", (n: number) => `sl-${n - (n % 2)}@school.bench.edu`],
    ["username", (n: number) => `@slbench${n}`],
    ["account id", (n: number) => `sl-${n}`],
    ["no match", (n: number) => `nobody-${n}@nowhere.example`],
  ] as const) {
    for (let index = 0; index < 20; index++) await searchStudents(ctx, admin, { q: query(pick()) });
    const samples: number[] = [];
    for (let index = 0; index < RUNS; index++) {
      const q = query(pick());
      const started = performance.now();
      const found = await searchStudents(ctx, admin, { q });
      samples.push(performance.now() - started);
      if (label !== "no match" && found.length !== 1)
        throw new Error(`${label} ${q}: ${found.length} matches`);
    }
    samples.sort((a, b) => a - b);
    console.log(
      `| ${label} | ${percentile(samples, 50).toFixed(2)} | ${percentile(samples, 95).toFixed(2)} | ${percentile(samples, 99).toFixed(2)} | ${load()} |`,
    );
  }
} finally {
  await database.close();
}
