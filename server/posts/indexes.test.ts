import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { Viewer } from "../accounts/viewer";
import type { CursorKey } from "../lists/cursor";
import { commentQueries } from "./comments";
import { listQueries } from "./list-queries";
import { recentPostsQuery } from "./posting-limits";
import { saveQueries } from "./saves";

/**
 * docs/architecture.md rule 4 / decision 0081: every query a list screen runs is served
 * by an index — the rows come off the index in the list's order (no Sort) and the
 * cursor is part of the index range (an Index Cond, not a Filter). Checked with
 * EXPLAIN on a few thousand rows, enough for the planner to prefer indexes.
 */

let t: TestContext;

const viewer: Viewer = {
  id: "idx-user-1",
  email: "idx-user-1@example.edu",
  firstName: "Index",
  lastName: "U.",
  username: "indexu1",
  img: null,
  campusId: "ou",
  verified: true,
  schoolVerified: true,
  schoolEmail: null,
  gradYear: null,
  profileSetUp: true,
  banned: false,
  suspendedUntil: null,
  redirectTo: null,
};

/** The uuid the SQL above gives `md5('post' || g)::uuid`. */
function generatedPostId(g: number): string {
  const hex = createHash("md5").update(`post${g}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
const popularPostId = generatedPostId(1);

beforeAll(async () => {
  t = await createTestContext();
  const db = t.ctx.db;
  await db.execute(sql`
    insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified)
    select 'idx-user-' || g, 'Index U.', 'idx-user-' || g || '@example.edu', 'Index', 'U.', 'indexu' || g,
      (array['ou','ut','smu','uf','ucla'])[1 + g % 5], true, true
    from generate_series(1, 400) g`);
  await db.execute(sql`
    insert into posts (id, campus_id, author_id, text_plain, category, img_count, created_at, last_modified)
    select md5('post' || g)::uuid, (array['ou','ut','smu','uf','ucla'])[1 + g % 5], 'idx-user-' || (1 + g % 400),
      'post ' || g, case when g % 4 = 0 then 'drones' when g % 4 = 1 then 'tickets' end,
      case when g % 3 = 0 then 1 else 0 end,
      timestamptz '2026-01-01' + g * interval '1 minute', timestamptz '2026-01-01' + g * interval '1 minute'
    from generate_series(1, 8000) g`);
  // Decision 0170: listings with prices, a few free, some sold.
  await db.execute(sql`
    update posts set price_cents = case when right(text_plain, 1) in ('0', '5') then 0 else 1500 end,
      listing_status = case when right(text_plain, 1) in ('7', '8') then 'sold' else 'available' end
    where text_plain like 'post %' and right(text_plain, 1) <> '1'`);
  await db.execute(sql`
    insert into posts (id, campus_id, author_id, text_plain, parent_id, root_id, created_at, last_modified)
    select md5('comment' || g)::uuid, p.campus_id, 'idx-user-' || (1 + g % 400), 'comment ' || g, p.id, p.id,
      p.created_at + interval '1 second', p.created_at + interval '1 second'
    from generate_series(1, 4000) g join posts p on p.id = md5('post' || (g * 2))::uuid`);
  await db.execute(sql`
    insert into post_media (post_id, campus_id, kind, img_path, thumb_path, img_name, img_order, img_width, img_height)
    select id, campus_id, 'image', 'images/posts/' || id || '/1-a-1080.webp', 'images/posts/' || id || '/1-a-480.webp',
      '1-a-1080.webp', 1, 1080, 810
    from posts where img_count > 0`);
  await db.execute(sql`
    insert into post_likes (post_id, user_id, campus_id, created_at)
    select p.id, 'idx-user-' || u, p.campus_id, p.created_at + u * interval '1 second'
    from generate_series(1, 20) u join posts p on p.parent_id is null and p.img_count > 0
    on conflict do nothing`);
  // A prolific member: the profile tabs of someone with a long history.
  await db.execute(sql`
    insert into posts (id, campus_id, author_id, text_plain, img_count, created_at, last_modified)
    select md5('own' || g)::uuid, 'ou', 'idx-user-5', 'own ' || g, case when g % 2 = 0 then 1 else 0 end,
      timestamptz '2026-02-01' + g * interval '1 minute', timestamptz '2026-02-01' + g * interval '1 minute'
    from generate_series(1, 1500) g`);
  await db.execute(sql`
    insert into posts (id, campus_id, author_id, text_plain, parent_id, root_id, created_at, last_modified)
    select md5('own-reply' || g)::uuid, 'ou', 'idx-user-5', 'reply ' || g, p.id, p.id,
      p.created_at + interval '2 seconds', p.created_at + interval '2 seconds'
    from generate_series(1, 1500) g join posts p on p.id = md5('post' || (g * 5))::uuid`);
  await db.execute(sql`
    insert into post_likes (post_id, user_id, campus_id, created_at)
    select p.id, 'idx-user-5', p.campus_id, p.created_at + interval '3 seconds'
    from posts p where p.parent_id is null and p.campus_id = 'ou'
    on conflict do nothing`);
  // A popular post: saved by everyone.
  await db.execute(sql`
    insert into post_likes (post_id, user_id, campus_id, created_at)
    select ${popularPostId}::uuid, 'idx-user-' || u, 'ut', timestamptz '2026-03-01' + u * interval '1 second'
    from generate_series(1, 400) u
    on conflict do nothing`);
  // Decision 0546: some hidden and removed posts and comments, and suspended authors (one for good,
  // one whose suspension has ended), so the lists' moderation filter meets rows it drops.
  await db.execute(sql`update posts set moderation_state = case when right(text_plain, 2) = '13' then 'hidden' else 'removed' end
    where right(text_plain, 2) in ('13', '29')`);
  await db.execute(sql`update "user" set suspended_until = case when id like '%7' then timestamptz '9999-12-31' else timestamptz '2026-01-01' end
    where id in ('idx-user-17', 'idx-user-27', 'idx-user-31')`);
  // Blocks (decision 0462): every member blocked a few others, so the signed-in lists' block
  // checks meet a table of some size, as in production.
  await db.execute(sql`
    insert into user_blocks (blocker_id, blocked_id, created_at)
    select 'idx-user-' || u, 'idx-user-' || (1 + (u * k) % 400), timestamptz '2026-03-01' + k * interval '1 minute'
    from generate_series(1, 400) u, generate_series(2, 6) k
    where 1 + (u * k) % 400 <> u
    on conflict do nothing`);
  // Decision 0616: the members' reputation summary rows, which listing cards read by primary key.
  await db.execute(sql`
    insert into reputations (user_id, review_count, rating, trades_completed)
    select 'idx-user-' || u, u % 9, case when u % 9 >= 3 then 4.5 end, u % 5 from generate_series(1, 400) u`);
  await db.execute(sql`analyze`);
  // Thousands of rows into the embedded database: seconds on a quiet machine, far more on a busy one.
}, 180_000);
afterAll(() => t.close());

async function explain(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql: text, params } = query.toSQL();
  const { pglite, pool } = t.ctx.database;
  const statement = `explain ${text}`;
  const result = pglite
    ? await pglite.query<Record<string, string>>(statement, params)
    : await pool?.query<Record<string, string>>(statement, params);
  if (!result) throw new Error("no database");
  return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
}

const key: CursorKey = { time: "2026-01-03T00:00:00.000000Z", id: "ffffffff-ffff-4fff-bfff-ffffffffffff" };
/** Decision 0546: the clock's now the lists compare suspensions with. */
const now = "2026-03-15T00:00:00.000Z";
/** The lists as a member and as a visitor read them (decision 0546: the author sees their own hidden posts). */
const readers = [
  ["member", viewer],
  ["visitor", null],
] as const;
type Reader = (typeof readers)[number][1];

/** The feed query (home and media) with the listing filters of decision 0170; the expiry cutoff 60 days before the data's newest rows. */
function feed(
  k: CursorKey | null,
  p: { category?: string; media?: boolean; free?: boolean; showSold?: boolean },
  reader: Reader = viewer,
) {
  return listQueries.feed(t.ctx.db, reader, {
    campusId: "ou",
    category: p.category ?? null,
    media: p.media,
    free: p.free,
    showSold: p.showSold,
    cutoff: "2025-11-15T00:00:00.000Z",
    now,
    key: k,
    limit: 16,
  });
}

function expectServedBy(plan: string, index: string) {
  expect(plan, plan).toMatch(new RegExp(`Index (Only )?Scan using ${index} on`));
  expect(plan, plan).not.toMatch(/Seq Scan|Sort/);
}

/** Decision 0546: the moderation filter is there, as a filter (of the scan or the author join), never an index condition. */
function expectModerationFilter(plan: string) {
  expect(plan, plan).toMatch(/Filter: .*moderation_state IS NULL/);
  expect(plan, plan).toMatch(/suspended_until/);
}

describe("every list query is served by an index (decision 0081)", () => {
  const cases: [
    string,
    string,
    (k: CursorKey | null, reader: Reader) => { toSQL(): { sql: string; params: unknown[] } },
  ][] = [
    // Decision 0170: the default view leaves sold listings out; 'Show sold' and 'Free' have their own.
    ["feed", "posts_feed_unsold_idx", (k, r) => feed(k, {}, r)],
    ["feed by category", "posts_feed_unsold_category_idx", (k, r) => feed(k, { category: "drones" }, r)],
    ["feed, show sold", "posts_feed_idx", (k, r) => feed(k, { showSold: true }, r)],
    [
      "feed by category, show sold",
      "posts_feed_category_idx",
      (k, r) => feed(k, { category: "drones", showSold: true }, r),
    ],
    ["media grid", "posts_media_unsold_idx", (k, r) => feed(k, { media: true }, r)],
    ["media grid, show sold", "posts_media_feed_idx", (k, r) => feed(k, { media: true, showSold: true }, r)],
    [
      "profile posts",
      "posts_profile_posts_idx",
      (k, r) =>
        listQueries.profilePosts(t.ctx.db, r, {
          userId: "idx-user-5",
          campusId: "ou",
          now,
          key: k,
          limit: 11,
        }),
    ],
    [
      "profile photos",
      "posts_profile_photos_idx",
      (k, r) =>
        listQueries.profilePhotos(t.ctx.db, r, {
          userId: "idx-user-5",
          campusId: "ou",
          now,
          key: k,
          limit: 11,
        }),
    ],
    [
      "profile replies",
      "posts_profile_replies_idx",
      (k, r) =>
        listQueries.profileReplies(t.ctx.db, r, {
          userId: "idx-user-5",
          campusId: "ou",
          now,
          key: k,
          limit: 11,
        }),
    ],
    [
      "saved / profile likes",
      "post_likes_user_saved_idx",
      (k, r) =>
        listQueries.saved(t.ctx.db, r, { userId: "idx-user-5", campusId: "ou", now, key: k, limit: 11 }),
    ],
  ];

  for (const [name, index, build] of cases) {
    for (const [who, reader] of readers) {
      it(`${name} (${who}): ${index}, first page and after a cursor, hidden items filtered`, async () => {
        const first = await explain(build(null, reader));
        expectServedBy(first, index);
        expectModerationFilter(first);
        const paged = await explain(build(key, reader));
        expectServedBy(paged, index);
        // The cursor bounds the index range itself.
        expect(paged, paged).toMatch(/Index Cond: .*ROW\(/);
        // Decision 0546: the moderation filter never becomes part of the index range.
        expect(paged, paged).not.toMatch(/Index Cond: [^\n]*moderation_state/);
      });
    }
  }

  // 'Free' (decision 0170): free listings are a small share of a campus's posts, so the
  // planner may read their whole range of the small partial index and sort it rather than read it
  // in order; either way only free rows are read, never the campus's other posts.
  const freeCases: [
    string,
    string,
    (k: CursorKey | null) => { toSQL(): { sql: string; params: unknown[] } },
  ][] = [
    ["feed, free", "posts_feed_free_idx", (k) => feed(k, { free: true })],
    ["feed, free, show sold", "posts_feed_free_idx", (k) => feed(k, { free: true, showSold: true })],
    [
      "feed by category, free",
      "posts_feed_free_category_idx",
      (k) => feed(k, { category: "drones", free: true }),
    ],
    ["media grid, free", "posts_feed_free_idx", (k) => feed(k, { media: true, free: true })],
  ];
  for (const [name, index, build] of freeCases) {
    it(`${name}: a range of ${index}, first page and after a cursor`, async () => {
      for (const plan of [await explain(build(null)), await explain(build(key))]) {
        expect(plan, plan).toMatch(new RegExp(`Index (Only )?Scan (using|on) ${index}`));
        expect(plan, plan).not.toMatch(/Seq Scan on posts/);
      }
    });
  }

  for (const [who, reader] of readers) {
    it(`a thread (${who}): posts_thread_idx, already in order, hidden comments filtered`, async () => {
      const plan = await explain(commentQueries.thread(t.ctx.db, reader, generatedPostId(10), now));
      expectServedBy(plan, "posts_thread_idx");
      expectModerationFilter(plan);
    });
  }

  it("who saved a post: post_likes_post_idx, first page and after a cursor", async () => {
    const postId = popularPostId;
    expectServedBy(
      await explain(saveQueries.savers(t.ctx.db, { postId, key: null, size: 30 })),
      "post_likes_post_idx",
    );
    const paged = await explain(
      saveQueries.savers(t.ctx.db, { postId, key: { time: key.time, id: "idx-user-9" }, size: 30 }),
    );
    expectServedBy(paged, "post_likes_post_idx");
    expect(paged, paged).toMatch(/Index Cond: .*ROW\(/);
  });

  it("the posting limit: a range of posts_author_created_idx, whatever the author's history (decision 0116)", async () => {
    // idx-user-5 has 3,000 posts and replies; the window holds what the limit lets in (at most
    // 100 a day), so the planner may read that range in order or sort it: both are bounded.
    const since = new Date("2026-02-01T12:00:00Z");
    const plan = await explain(recentPostsQuery(t.ctx.db, { authorId: "idx-user-5", since, limit: 100 }));
    expect(plan, plan).toMatch(/Index (Only )?Scan (using|on) posts_author_created_idx/);
    expect(plan, plan).toMatch(/Index Cond: \(\(author_id = .*\) AND \(created_at > /);
    expect(plan, plan).not.toMatch(/Seq Scan/);
  });

  it("a post's first media and the viewer's save are index probes per row", async () => {
    const plan = await explain(build());
    expect(plan, plan).toMatch(/post_media_order_unique/);
    expect(plan, plan).toMatch(/post_likes_post_id_user_id_pk/);
    function build() {
      return feed(null, {});
    }
  });
});
