// Decisions 0570 and 0571: an account with 1,000 posts (and replies under them) and 10,000 messages
// in 50 conversations exports in ≤ 60 s and deletes in ≤ 5 s, on PostgreSQL, measured through
// runDataExportsRound and eraseAccount themselves. Not a test: nothing here runs in `npm test`.
//
//   createdb -h 127.0.0.1 -U postgres cbs_bench_data
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench_data npx tsx bench/account-data.ts
//
// Each run makes its own accounts (a fresh suffix), so it can be repeated on the same database.
import { mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { getViewerById } from "~/server/accounts/viewer";
import { openDatabase } from "~/server/db/client";
import { dataExports } from "~/server/db/schema";
import { eraseAccount } from "~/server/privacy/erase";
import { requestDataExport, runDataExportsRound } from "~/server/privacy/export";
import { benchTarget } from "./database";
import { searchBenchContext } from "./search";

const POSTS = 1_000;
const MESSAGES = 10_000;
const CHATS = 50;
const load = () => os.loadavg()[0]?.toFixed(1) ?? "?";

const target = benchTarget();
if (target.kind !== "postgres")
  throw new Error("Decisions 0570 and 0571 are measured on PostgreSQL: set DATABASE_URL.");
const dataDir = mkdtempSync(path.join(tmpdir(), "cbs-bench-data-"));
const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
try {
  const ctx = await searchBenchContext(database, dataDir);
  const db = database.db;
  const run = Date.now().toString(36);
  const me = `ad-${run}`;
  console.log(
    `Generating an account with ${POSTS} posts and ${MESSAGES} messages in ${CHATS} chats (run ${run})…`,
  );
  await db.execute(sql`
    insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified, total_posts)
    select 'ad-${sql.raw(run)}' || case when g = 0 then '' else '-' || g end, 'A D.',
      'ad-${sql.raw(run)}-' || g || '@bench.example.edu', 'A', 'D.', 'adbench${sql.raw(run)}x' || g, 'ou', true, true,
      case when g = 0 then ${POSTS} else 0 end
    from generate_series(0, ${CHATS}) g`);
  await db.execute(sql`
    insert into posts (campus_id, author_id, text_plain, created_at, last_modified)
    select 'ou', ${me}, 'Bench listing ' || g || ' desk lamp chair bike', now() - (g || ' minutes')::interval,
      now() - (g || ' minutes')::interval
    from generate_series(1, ${POSTS}) g`);
  // A reply from another account under every other post, and a save of each by one of them.
  await db.execute(sql`
    insert into posts (campus_id, author_id, text_plain, parent_id, root_id)
    select 'ou', ${me} || '-' || (1 + row_number() over () % ${CHATS}), 'Still there?', p.id, p.id
    from posts p where p.author_id = ${me} and p.parent_id is null and abs(hashtext(p.id::text)) % 2 = 0`);
  await db.execute(sql`
    update posts p set comment_count = 1
    where p.author_id = ${me} and exists (select 1 from posts c where c.parent_id = p.id)`);
  await db.execute(sql`
    insert into chats (id, campus_id, from_user_id, to_user_id, last_seq)
    select gen_random_uuid(), 'ou', ${me}, ${me} || '-' || g, ${MESSAGES / CHATS} from generate_series(1, ${CHATS}) g`);
  await db.execute(sql`
    insert into chat_members (chat_id, user_id, other_user_id, campus_id)
    select id, from_user_id, to_user_id, 'ou' from chats where from_user_id = ${me}
    union all
    select id, to_user_id, from_user_id, 'ou' from chats where from_user_id = ${me}`);
  await db.execute(sql`
    insert into chat_messages (chat_id, campus_id, sender_id, seq, text, created_at)
    select c.id, 'ou', case when s % 2 = 0 then c.from_user_id else c.to_user_id end, s,
      'Message number ' || s || ' about the lamp', now() - ((${MESSAGES} - s) || ' seconds')::interval
    from chats c, generate_series(1, ${MESSAGES / CHATS}) s where c.from_user_id = ${me}`);
  await db.execute(sql`analyze`);
  // As autovacuum keeps a live site's dictionary: the runs before this one left dead terms behind.
  if (process.env.BENCH_NO_VACUUM !== "1") await db.execute(sql`vacuum analyze search_terms`);

  const viewer = await getViewerById(ctx, me);
  if (!viewer) throw new Error("bench account missing");
  await requestDataExport(ctx, viewer);
  const exportStart = performance.now();
  await runDataExportsRound(ctx);
  const exportMs = performance.now() - exportStart;
  const [row] = await db.select().from(dataExports).where(eq(dataExports.userId, me));
  if (row?.status !== "ready") throw new Error(`export ${row?.status}: ${row?.error}`);

  const deleteStart = performance.now();
  await eraseAccount(ctx, me);
  const deleteMs = performance.now() - deleteStart;

  const date = new Date().toISOString();
  console.log(
    `${date} load ${load()} cores ${os.cpus().length}: export ${(exportMs / 1000).toFixed(2)} s (${((row.bytes ?? 0) / 1e6).toFixed(2)} MB, target ≤ 60 s); delete ${(deleteMs / 1000).toFixed(2)} s (target ≤ 5 s)`,
  );
  await ctx.realtime.close?.();
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
