// Builds a campus-sized data set for the benchmark (decision 0102): 5,000 users,
// 100,000 posts, 300,000 comments and 1,000,000 saves, written straight into the
// database (not through the HTTP API): users through Drizzle's multi-row inserts,
// the big tables as INSERT … SELECT over generate_series, so the rows are made by
// the database itself. Constraints, foreign keys and indexes stay on.
//
//   DATA_DIR=/tmp/cbs-bench npx tsx bench/generate.ts                 (PGlite)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cbs_bench npx tsx bench/generate.ts
//
// The database must be new (no users yet): an empty data dir, or `createdb cbs_bench`.
import { hashPassword } from "better-auth/crypto";
import { asc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { seedCampuses } from "~/server/campuses/campuses";
import { type DatabaseHandle, openDatabase } from "~/server/db/client";
import { migrateDatabase } from "~/server/db/migrate";
import { account, campuses, postLikes, posts as postsTable, user } from "~/server/db/schema";
import { CATEGORIES } from "~/server/posts/categories.shared";
import { plainTextToRichText } from "~/server/posts/rich-text.shared";
import { rebuildSearchTerms } from "~/server/search/terms";
import {
  BENCH_FIRST_NAMES,
  BENCH_SIZES,
  BENCH_USER,
  benchTarget,
  withoutSearchTermsTrigger,
} from "./database";

/** The first ten of the bench's names: the data set of decision 0102 as it was generated. */
const FIRST_NAMES = BENCH_FIRST_NAMES.slice(0, 10);
const LAST_INITIALS = ["A.", "B.", "C.", "D.", "E.", "G.", "H.", "K.", "M.", "R."];
const PHRASES = [
  "Selling my calculus textbook, barely used, no highlights.",
  "Mini fridge for the dorm, works great, pick up near the library.",
  "Two tickets for Saturday's game, section 14, face value.",
  "Desk lamp and chair, moving out at the end of the month.",
  "Road bike, 54 cm frame, new tires last spring, lock included.",
  "Looking for a roommate for the fall semester, close to campus.",
];

/** A number of ours written into the SQL as a literal (parameters would need casts everywhere). */
function lit(value: number): SQL {
  return sql.raw(String(Math.trunc(value)));
}

type Executor = Pick<DatabaseHandle["db"], "execute">;

/**
 * Drops the indexes of `tables` that back no constraint, and their foreign keys; returns
 * what puts them back (each from its own definition, as pg_get_indexdef / pg_get_constraintdef
 * print it, so this stays right whatever the migrations add).
 */
async function setAside(tx: Executor, tables: string[]): Promise<() => Promise<void>> {
  const names = sql.join(
    tables.map((table) => sql`${table}`),
    sql`, `,
  );
  const indexes = (await tx.execute(sql`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class t on t.oid = i.indrelid
    where t.relname in (${names}) and t.relnamespace = 'public'::regnamespace
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`)) as unknown as {
    rows: { name: string; definition: string }[];
  };
  const keys = (await tx.execute(sql`
    select c.conrelid::regclass::text as "table", c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where c.contype = 'f' and t.relname in (${names}) and t.relnamespace = 'public'::regnamespace`)) as unknown as {
    rows: { table: string; name: string; definition: string }[];
  };
  for (const key of keys.rows) {
    await tx.execute(sql.raw(`alter table ${key.table} drop constraint "${key.name}"`));
  }
  for (const index of indexes.rows) await tx.execute(sql.raw(`drop index ${index.name}`));
  return async () => {
    for (const index of indexes.rows) await tx.execute(sql.raw(index.definition));
    for (const key of keys.rows) {
      await tx.execute(sql.raw(`alter table ${key.table} add constraint "${key.name}" ${key.definition}`));
    }
  };
}

/** One step, timed. */
async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  console.log(`  ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

async function main() {
  const target = benchTarget();
  console.log(`Generating into ${target.label}`);
  const started = performance.now();
  const database: DatabaseHandle = await openDatabase({
    databaseUrl: target.databaseUrl,
    dataDir: target.dataDir,
  });
  try {
    await generate(database);
  } finally {
    await database.close();
  }
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function generate(database: DatabaseHandle) {
  const { db } = database;
  await step("migrations and campuses", async () => {
    await migrateDatabase(database);
    // Privacy is the app's to write at start, from PUBLIC_CAMPUSES (decision 0135).
    await seedCampuses(db, []);
  });
  const [existing] = await db.select({ count: sql<number>`count(*)::int` }).from(user);
  if ((existing?.count ?? 0) > 0) {
    throw new Error(
      "This database already has users: give the generator a new one (an empty DATA_DIR, or dropdb/createdb).",
    );
  }

  // The 14 communities ('www' is the generic landing instance, which holds no posts);
  // 'ou' first, so user 0 (the one the load script signs in as) is an OU student.
  const rows = await db
    .select({ id: campuses.id })
    .from(campuses)
    .where(eq(campuses.generic, false))
    .orderBy(asc(campuses.id));
  const campusIds = [...rows.filter((row) => row.id === "ou"), ...rows.filter((row) => row.id !== "ou")].map(
    (row) => row.id,
  );
  const campusCount = campusIds.length;
  const campusArray = sql`(array[${sql.join(
    campusIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[])`;
  const { users, posts, newUserPosts, comments, nestedComments, savesPerUser } = BENCH_SIZES;
  const usersPerCampus = Math.floor(users / campusCount);

  await step(`${users.toLocaleString("en-US")} users (Drizzle, 500 a statement)`, async () => {
    const now = new Date();
    const all = Array.from({ length: users }, (_, u) => {
      const firstName = FIRST_NAMES[u % FIRST_NAMES.length] ?? "Avery";
      const lastName = LAST_INITIALS[Math.floor(u / FIRST_NAMES.length) % LAST_INITIALS.length] ?? "A.";
      const campusId = campusIds[u % campusCount] ?? "ou";
      return {
        id: `bench-user-${u}`,
        name: `${firstName} ${lastName}`,
        email: u === 0 ? BENCH_USER.email : `bench${u}@bench.example.edu`,
        verified: true,
        firstName,
        lastName,
        username: `bench${u}`,
        campusId,
        schoolEmail: `bench${u}@${campusId}.bench.example.edu`,
        schoolVerified: true,
        profileSetUp: true,
        bio: "Student selling things on campus.",
        createdAt: now,
        updatedAt: now,
      };
    });
    for (let offset = 0; offset < all.length; offset += 500) {
      await db.insert(user).values(all.slice(offset, offset + 500));
    }
    await db.insert(account).values({
      id: "bench-account-0",
      accountId: BENCH_USER.id,
      providerId: "credential",
      userId: BENCH_USER.id,
      password: await hashPassword(BENCH_USER.password),
      createdAt: now,
      updatedAt: now,
    });
  });

  // The Lexical JSON of a one-paragraph post; each row puts its own text in it.
  const template = JSON.stringify(plainTextToRichText("x"));
  const phrases = sql`(array[${sql.join(
    PHRASES.map((phrase) => sql`${phrase}`),
    sql`, `,
  )}]::text[])`;
  const categories = sql`(array[${sql.join(
    CATEGORIES.map((category) => sql`${category.value}`),
    sql`, `,
  )}]::text[])`;
  // Post g's campus, author and time, as SQL over g (posts 0…4,999 are the users' 'new user' posts).
  // Posts are spread over the last ~170 days, one every 150 s; the newest is an hour old.
  const postTime = (g: SQL) =>
    sql`(now() - interval '1 hour' - (${lit(posts)} - ${g}) * interval '150 seconds')`;

  const direct = comments - nestedComments;
  const firstSlot = Math.ceil(newUserPosts / campusCount);
  const postsPerCampus = Math.floor((posts - firstSlot * campusCount) / campusCount);
  const rootOf = (c: SQL) => sql`(${lit(newUserPosts)} + ((${c}) * 7) % ${lit(posts - newUserPosts)})`;
  const authorOn = (campusOf: SQL, pick: SQL) =>
    sql`'bench-user-' || ((${campusOf}) % ${lit(campusCount)} + ${lit(campusCount)} * ((${pick}) % ${lit(usersPerCampus)}))`;
  const lexical = (text: SQL) =>
    sql`jsonb_set(${template}::jsonb, '{root,children,0,children,0,text}', to_jsonb(${text}))`;

  // Everything is computed in temporary tables first (no indexes, no WAL), counters and
  // bumps included, so each real table is written once, in one statement per level.
  await db.transaction(async (tx) => {
    await step(`staging ${(posts + comments).toLocaleString("en-US")} posts and comments`, async () => {
      await tx.execute(sql`
        create temp table bench_stage (
          level int not null, id uuid not null, campus_id text not null, type text not null,
          author_id text not null, text jsonb, text_plain text not null, category text,
          parent_id uuid, root_id uuid, img_count int not null, created_at timestamptz not null,
          last_modified timestamptz, comment_count int not null default 0, like_count int not null default 0
        ) on commit drop`);
      // spec 2 §2: the 'new user' banner of each user, on their campus (posts 0…4,999).
      await tx.execute(sql`
        insert into bench_stage (level, id, campus_id, type, author_id, text_plain, img_count, created_at)
        select 0, md5('bench-post-' || g)::uuid, ${campusArray}[1 + g % ${lit(campusCount)}], 'new user',
          'bench-user-' || g, '', 0, ${postTime(sql`g`)}
        from generate_series(0, ${lit(newUserPosts - 1)}) g`);
      // The posts: campus g % 14, an author of that campus, a text of 1–6 sentences (some
      // over the 200-character preview), a category on two posts of three, photos or a
      // video on two posts of five (one to three files).
      await tx.execute(sql`
        insert into bench_stage (level, id, campus_id, type, author_id, text, text_plain, category, img_count, created_at)
        select 0, md5('bench-post-' || g)::uuid, ${campusArray}[1 + g % ${lit(campusCount)}], 'post',
          ${authorOn(sql`g`, sql`g / ${lit(campusCount)} * 11`)},
          ${lexical(sql`t.body`)}, t.body,
          case when g % 3 = 0 then null else ${categories}[1 + g % ${lit(CATEGORIES.length)}] end,
          case when g % 5 < 2 then 1 + g % 3 else 0 end,
          ${postTime(sql`g`)}
        from generate_series(${lit(newUserPosts)}, ${lit(posts - 1)}) g
        cross join lateral (
          select array_to_string(array(
            select ${phrases}[1 + (g + s) % ${lit(PHRASES.length)}] from generate_series(1, 1 + g % 6) s
          ), ' ') as body
        ) t`);
      // Comments 0…199,999 answer post rootOf(c), (c % 900 + 1) minutes after it; the other
      // 100,000 answer one of those comments, up to 600 minutes later.
      await tx.execute(sql`
        insert into bench_stage (level, id, campus_id, type, author_id, text, text_plain, parent_id, root_id, img_count, created_at)
        select 1, md5('bench-comment-' || c)::uuid, ${campusArray}[1 + r % ${lit(campusCount)}], 'post',
          ${authorOn(sql`r`, sql`c`)},
          ${lexical(sql`${phrases}[1 + c % ${lit(PHRASES.length)}]`)}, ${phrases}[1 + c % ${lit(PHRASES.length)}],
          md5('bench-post-' || r)::uuid, md5('bench-post-' || r)::uuid, 0,
          ${postTime(sql`r`)} + (c % 900 + 1) * interval '1 minute'
        from generate_series(0, ${lit(direct - 1)}) c
        cross join lateral (select ${rootOf(sql`c`)} as r) root`);
      await tx.execute(sql`
        insert into bench_stage (level, id, campus_id, type, author_id, text, text_plain, parent_id, root_id, img_count, created_at)
        select 2, md5('bench-comment-' || n)::uuid, ${campusArray}[1 + r % ${lit(campusCount)}], 'post',
          ${authorOn(sql`r`, sql`n + 3`)},
          ${lexical(sql`'Is this still available?'::text`)}, 'Is this still available?',
          md5('bench-comment-' || pc)::uuid, md5('bench-post-' || r)::uuid, 0,
          ${postTime(sql`r`)} + (pc % 900 + 1 + n % 600 + 1) * interval '1 minute'
        from generate_series(${lit(direct)}, ${lit(comments - 1)}) n
        cross join lateral (select (n * 13) % ${lit(direct)} as pc) parent
        cross join lateral (select ${rootOf(sql`pc`)} as r) root`);
    });

    await step(`staging ${BENCH_SIZES.saves.toLocaleString("en-US")} saves`, async () => {
      // User u saves 200 distinct posts of their own campus: post slot (u·7919 + k·4729) mod
      // 6,784 for k < 200 (4729 is coprime with 6,784, so no slot repeats for a user).
      await tx.execute(sql`
        create temp table bench_saves on commit drop as
        select md5('bench-post-' || g)::uuid as post_id, 'bench-user-' || u as user_id,
          ${campusArray}[1 + u % ${lit(campusCount)}] as campus_id,
          least(now(), ${postTime(sql`g`)} + (k + 1) * interval '17 minutes') as created_at
        from generate_series(0, ${lit(users - 1)}) u
        cross join generate_series(0, ${lit(savesPerUser - 1)}) k
        cross join lateral (
          select u % ${lit(campusCount)} + ${lit(campusCount)} * (${lit(firstSlot)} + (u * 7919 + k * 4729) % ${lit(postsPerCampus)}) as g
        ) post`);
    });

    await step("counters and bumps (comment_count, like_count, last_modified)", async () => {
      // One pass of hash joins over the staged rows (no row is updated afterwards).
      // spec 2 §4: a reply bumps lastModified of its parent and of every ancestor.
      await tx.execute(sql`
        create temp table bench_final on commit drop as
        select s.id, s.campus_id, s.type, s.author_id, s.text, s.text_plain, s.category, s.parent_id, s.root_id,
          s.img_count, coalesce(l.n, 0) as like_count, coalesce(c.n, 0) as comment_count, s.created_at,
          greatest(s.created_at, b1.latest, b0.latest) as last_modified
        from bench_stage s
        left join (select parent_id, count(*)::int as n from bench_stage where parent_id is not null group by parent_id) c
          on c.parent_id = s.id
        left join (select post_id, count(*)::int as n from bench_saves group by post_id) l on l.post_id = s.id
        left join (select parent_id, max(created_at) as latest from bench_stage where level = 2 group by parent_id) b1
          on b1.parent_id = s.id
        left join (select root_id, max(created_at) as latest from bench_stage where root_id is not null group by root_id) b0
          on b0.root_id = s.id`);
    });

    // PostgreSQL's advice for bulk loading (manual §14.4 'Populating a Database'): add the
    // secondary indexes and foreign keys after the rows. Both are re-created here from their
    // own definitions, inside this transaction: the unique indexes and the foreign keys check
    // every row as they come back, so nothing unchecked is left if anything fails.
    const restore = await step("secondary indexes and foreign keys set aside", () =>
      setAside(tx, ["posts", "post_media", "post_likes"]),
    );

    await step("posts and comments (one insert)", () =>
      withoutSearchTermsTrigger(tx, () =>
        tx.execute(sql`
          insert into posts (id, campus_id, type, author_id, text, text_plain, category, parent_id, root_id,
            img_count, like_count, comment_count, created_at, last_modified)
          select id, campus_id, type, author_id, text, text_plain, category, parent_id, root_id,
            img_count, like_count, comment_count, created_at, last_modified
          from bench_final order by id`),
      ),
    );

    await step("photos and videos (post_media)", async () => {
      await tx.execute(sql`
        insert into post_media (post_id, campus_id, kind, img_path, thumb_path, img_name, img_order, img_width, img_height)
        select p.id, p.campus_id, v.kind,
          'images/posts/' || p.id || '/' || o || v.suffix,
          case when v.kind = 'video' then null else 'images/posts/' || p.id || '/' || o || '-bench-480.webp' end,
          o || v.suffix, o,
          case when v.kind = 'video' then null else 1080 end,
          case when v.kind = 'video' then null else 810 end
        from bench_stage p
        cross join lateral generate_series(1, p.img_count) o
        cross join lateral (
          select k as kind, case when k = 'video' then '-bench.mp4' else '-bench-1080.webp' end as suffix
          from (select case when o = 1 and get_byte(decode(md5(p.id::text), 'hex'), 0) < 8 then 'video' else 'image' end as k) x
        ) v
        where p.img_count > 0`);
    });

    await step("saves (post_likes)", async () => {
      await tx.execute(sql`
        insert into post_likes (post_id, user_id, campus_id, created_at)
        select post_id, user_id, campus_id, created_at from bench_saves order by post_id, user_id`);
    });

    await step("indexes rebuilt and foreign keys checked", restore);

    await step("users' post counts (total_posts)", async () => {
      await tx.execute(sql`
        update "user" u set total_posts = t.n
        from (select author_id, count(*)::int as n from bench_stage where level = 0 and type = 'post' group by author_id) t
        where u.id = t.author_id`);
    });
  });

  await step("search dictionary (rebuildSearchTerms)", () => rebuildSearchTerms(db));

  await step("VACUUM ANALYZE", async () => {
    await db.execute(sql`vacuum analyze`);
  });

  const count = async (where: SQL) =>
    (await db.select({ n: sql<number>`count(*)::int` }).from(postsTable).where(where))[0]?.n ?? 0;
  const counts = {
    users: (await db.select({ n: sql<number>`count(*)::int` }).from(user))[0]?.n,
    posts: await count(isNull(postsTable.parentId)),
    comments: await count(isNotNull(postsTable.parentId)),
    saves: (await db.select({ n: sql<number>`count(*)::int` }).from(postLikes))[0]?.n,
  };
  console.log("  rows:", counts);
}

await main();
