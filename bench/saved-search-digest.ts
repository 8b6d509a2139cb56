// Decision 0630: the daily digest for 10,000 students, through runSavedSearchDigest itself (the
// batches that mark hits, re-check listings, render the e-mails and write the outbox). Each
// student has two Daily searches and three hits, one listing found by both (so the dedupe works),
// made the day before; the clock is then put past 08:00 on the campus. Target: ≤ 60 s; PGlite
// is reported beside PostgreSQL. Not a test: nothing here runs in `npm test`.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_digest
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_digest npx tsx bench/saved-search-digest.ts
//   DATA_DIR=/tmp/cbs-bench-digest npx tsx bench/saved-search-digest.ts
//
// Knobs: BENCH_STUDENTS (10000). The report carries the 1-minute load average.
import os from "node:os";
import { sql } from "drizzle-orm";
import { seedCampuses } from "~/server/campuses/campuses";
import { CampusDirectory } from "~/server/campuses/directory";
import { loadConfig } from "~/server/config";
import type { AppContext } from "~/server/context";
import { openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { createLogger } from "~/server/logger";
import { runSavedSearchDigest, SAVED_SEARCH_DIGEST_MAIL_KIND } from "~/server/search/saved-search-digest";
import { rowsOf } from "~/server/search/terms";
import { benchTarget } from "./database";

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 10_000);
const SELLERS = 100;
const LISTINGS = 2_000;
const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";

const target = benchTarget();
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
const { db } = database;
try {
  await migrateDatabase(database);
  await seedCampuses(db, []);
  const campuses = new CampusDirectory(db, {});
  await campuses.refresh();
  const run = Date.now().toString(36);
  // OU is Central Time: the hits are made Monday 14:00 CST, the digest runs Tuesday 09:00 CST.
  const madeAt = new Date("2026-03-02T20:00:00Z");
  let now = new Date("2026-03-03T15:00:00Z");
  const ctx = {
    config: loadConfig(process.env),
    db,
    campuses,
    clock: { now: () => now },
    log: createLogger("silent"),
    storage: { url: (key: string) => `/media-files/${key}` },
    wakeMailWorker: () => {},
  } as unknown as AppContext;

  const setupStarted = performance.now();
  await db.execute(sql`
    insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified,
      profile_set_up, bio, img)
    select 'dg-' || ${run} || '-' || g, 'D G.', 'dg-' || ${run} || '-' || g || '@bench.example.edu', 'D', 'G.',
      'dgbench' || ${run} || g, 'ou', true, true, true, 'Bench', '/x.webp'
    from generate_series(0, ${STUDENTS + SELLERS - 1}) g`);
  await db.execute(sql`
    insert into posts (campus_id, author_id, text_plain, price_cents, created_at)
    select 'ou', 'dg-' || ${run} || '-' || (${STUDENTS} + g % ${SELLERS}), 'Bench desk lamp ' || g || E'\nGood shape',
      1000 + g, ${madeAt.toISOString()}::timestamptz
    from generate_series(0, ${LISTINGS - 1}) g`);
  await db.execute(sql`
    insert into saved_searches (campus_id, user_id, name, query, query_key, cadence, unsubscribe_token_hash, created_at, opened_at)
    select 'ou', 'dg-' || ${run} || '-' || g, w, 'q=' || w, 'q=' || w, 'daily',
      md5(${run} || '-' || g || '-' || w), ${madeAt.toISOString()}::timestamptz, ${madeAt.toISOString()}::timestamptz
    from generate_series(0, ${STUDENTS - 1}) g, unnest(array['desk', 'lamp']) w`);
  // Three hits a student: listing a by both searches, b by desk, c by lamp.
  await db.execute(sql`
    with listing as (select id, row_number() over (order by id) - 1 as n from posts
      where author_id like ${`dg-${run}-%`}),
    search as (select id, user_id, name, (split_part(user_id, '-', 3))::int as g from saved_searches
      where user_id like ${`dg-${run}-%`})
    insert into saved_search_hits (saved_search_id, post_id, user_id, campus_id, created_at)
    select s.id, l.id, s.user_id, 'ou', ${madeAt.toISOString()}::timestamptz
    from search s join listing l on l.n in (
      (s.g * 3) % ${LISTINGS},
      case when s.name = 'desk' then (s.g * 3 + 1) % ${LISTINGS} else (s.g * 3 + 2) % ${LISTINGS} end)`);
  const [counted] = rowsOf<{ hits: number }>(
    await db.execute(
      sql`select count(*)::int as hits from saved_search_hits where user_id like ${`dg-${run}-%`} and emailed_at is null`,
    ),
  );
  console.log(
    `${target.label}: ${STUDENTS} students, ${counted?.hits} hits, set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s (load ${load()})`,
  );

  const started = performance.now();
  let runs = 0;
  for (;;) {
    runs++;
    const { more } = await runSavedSearchDigest(ctx);
    if (!more) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const [mails] = rowsOf<{ n: number; listed: number }>(
    await db.execute(sql`
      select count(*)::int as n, min(array_length(regexp_split_to_array(text, 'matches: '), 1) - 1)::int as listed
      from mail_outbox where kind = ${SAVED_SEARCH_DIGEST_MAIL_KIND} and "to" like ${`dg-${run}-%`}`),
  );
  console.log(
    `digest: ${mails?.n} e-mails (each listing ${mails?.listed} listings) in ${seconds.toFixed(1)} s over ${runs} runs — target ≤ 60 s: ${seconds <= 60 ? "met" : "NOT met"} (load ${load()})`,
  );
  now = new Date(now.getTime() + 60_000);
  const again = performance.now();
  await runSavedSearchDigest(ctx);
  console.log(`an idle run after it: ${(performance.now() - again).toFixed(1)} ms`);
} finally {
  await database.close();
}
