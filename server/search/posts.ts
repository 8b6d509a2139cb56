import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { noBlockBetween } from "../chats/blocks";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { UUID_PATTERN } from "../db/ids";
import { posts, user } from "../db/schema";
import { cursorTime, isCursorTime } from "../lists/cursor";
import { type Page, pageSize } from "../lists/pages";
import { shownToWithoutAuthor, visibilityNow } from "../moderation/visibility";
import { requireReadableCampus } from "../posts/access";
import { PostError } from "../posts/errors";
import { POST_MESSAGES } from "../posts/schemas";
import { type PostSummary, summaryColumns, toSummary } from "../posts/views";
import { DEFAULT_SEARCH_FILTERS, type SearchFilters } from "./filters.shared";
import { SEARCH_LIMITS } from "./limits";
import { applicableFilters, listingConditions, type SortKey, sortKeys } from "./listing";
import { expandWords, type TermGroup, toTsQuery } from "./terms";
import { normaliseSearchText, searchWords } from "./text.shared";

/**
 * Post search (spec 2 §2 Search, §7 'posts index sorted by date descending … 10 hits per page';
 * decision 0190). Typed words become exact dictionary terms (terms.ts); the
 * campus's top-level posts holding every word are read through posts_search_idx (a GIN index
 * on campus and words, for top-level posts only) and sorted newest first — there is no
 * relevance score to compute, so a page costs the matches' bitmap plus a top-N sort, never a
 * score of every match. Keyset paging on the sort's keys, ending with (created_at, id).
 */

export interface SearchPostsInput {
  /** The campus of the request's host. */
  campusId: string;
  q: string;
  /** Latest: every matching post; media: those with a photo or video (spec 2 §2, the 3-column grid). */
  show: "latest" | "media";
  filters?: SearchFilters;
  cursor?: string | null;
  limit?: number;
}

export interface PostSearchPage extends Page<PostSummary> {
  /** The filters the results honour (the listing ones stay at their defaults until they exist). */
  applied: SearchFilters;
}

type CursorValue = string | number | null;

/** Opaque to clients: base64url of [sort, …values of the sort's keys]. */
function encodeSearchCursor(sort: string, values: CursorValue[]): string {
  return Buffer.from(JSON.stringify([sort, ...values]), "utf8").toString("base64url");
}

/** The cursor's values, checked against the sort's keys; anything else is refused (never sent to SQL as is). */
function decodeSearchCursor(cursor: string, sort: string, keys: SortKey[]): CursorValue[] {
  const refuse = () => new PostError("invalid-input", POST_MESSAGES.badCursor);
  if (cursor.length > 300) throw refuse();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(value) || value.length !== keys.length + 1 || value[0] !== sort) throw refuse();
  const values = value.slice(1) as unknown[];
  keys.forEach((key, i) => {
    const v = values[i];
    if (v === null && key.nullable) return;
    if (key.kind === "int" && !(typeof v === "number" && Number.isSafeInteger(v))) throw refuse();
    // docs/product/outages-and-errors.md: a date PostgreSQL refuses (2026-02-30) was a 500; the one check of every cursor's time.
    if (key.kind === "time" && !isCursorTime(v)) throw refuse();
    if (key.kind === "uuid" && !(typeof v === "string" && UUID_PATTERN.test(v))) throw refuse();
  });
  return values as CursorValue[];
}

function typed(key: SortKey, value: CursorValue): SQL {
  if (key.kind === "time") return sql`${value}::timestamptz`;
  if (key.kind === "uuid") return sql`${value}::uuid`;
  return sql`${value}::integer`;
}

/** Strictly after `value` in the key's order (nulls last in either direction). */
function beyond(key: SortKey, value: CursorValue): SQL {
  if (value === null) return sql`false`;
  const op = key.direction === "asc" ? sql`>` : sql`<`;
  const compare = sql`${key.column} ${op} ${typed(key, value)}`;
  return key.nullable ? sql`(${compare} or ${key.column} is null)` : compare;
}

function same(key: SortKey, value: CursorValue): SQL {
  return value === null ? sql`${key.column} is null` : sql`${key.column} = ${typed(key, value)}`;
}

/** Rows after the cursor in the sort's order: (k1 beyond) or (k1 same and k2 beyond) or … */
function afterCursor(keys: SortKey[], values: CursorValue[]): SQL {
  const alternatives: SQL[] = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((earlier, j) => same(earlier, values[j] ?? null));
    return sql`(${sql.join([...equal, beyond(key, values[i] ?? null)], sql` and `)})`;
  });
  return sql`(${sql.join(alternatives, sql` or `)})`;
}

function orderBy(keys: SortKey[]): SQL[] {
  return keys.map((key) =>
    key.direction === "asc" ? sql`${key.column} asc nulls last` : sql`${key.column} desc nulls last`,
  );
}

/**
 * The same order written so no index can give it (`created_at + interval '0'`): the bitmap plan
 * must not be turned into a walk of posts_search_newest_idx by the planner, which on sparse
 * matches reads the whole campus (decision 0190's trap).
 */
function orderByUnindexed(keys: SortKey[]): SQL[] {
  return keys.map((key) => {
    const column = key.kind === "time" ? sql`(${key.column} + interval '0 seconds')` : sql`${key.column}`;
    return key.direction === "asc" ? sql`${column} asc nulls last` : sql`${column} desc nulls last`;
  });
}

/**
 * How the posts of a search are read (decision 0311), chosen by the dictionary's counts:
 * - `bitmap`: the GIN bitmap of every match, then a top-N sort: its cost follows the matches.
 * - `walk`: the campus's posts newest first (posts_search_newest_idx), each checked against the
 *   words, stopping at a page: its cost follows how rare a match is, and is capped at WALK_ROWS
 *   posts; a walk that fills no page in them is done again as a bitmap (searchPosts).
 */
export type PostSearchPlan = "walk" | "bitmap";

/** A search walks when every typed word matches at least this many posts (about one post in 20 of a campus of 8,000). */
const WALK_MIN_POSTS = 400;
/** The posts one walk reads at most. */
export const WALK_ROWS = 2000;

/** The plan of a search: a walk for common words on the newest sort without narrowing filters. */
export function choosePostSearchPlan(
  groups: readonly TermGroup[],
  show: "latest" | "media",
  filters: SearchFilters,
): PostSearchPlan {
  const narrowed =
    filters.category !== null ||
    filters.condition !== null ||
    filters.minPriceCents !== null ||
    filters.maxPriceCents !== null;
  if (filters.sort !== "newest" || narrowed || groups.length === 0) return "bitmap";
  const fewest = Math.min(...groups.map((group) => group.posts));
  // About a third of posts have media: a walk of the Media tab meets its matches less often.
  return fewest >= (show === "media" ? 2 : 1) * WALK_MIN_POSTS ? "walk" : "bitmap";
}

/** The value of a key as the cursor carries it. */
function keyValue(key: SortKey): SQL {
  if (key.kind === "time") return cursorTime(key.column);
  return sql`${key.column}`;
}

/**
 * Which posts a search finds, as one condition on `posts`: what the search asks
 * (postSearchTextConditions) and what its viewer may see (postSearchViewerConditions). The
 * search's page reads it (postSearchQuery), and so does the saved-search matcher for one new
 * listing (decision 0621), so the two never differ.
 */
export function postSearchConditions(
  viewer: { id: string } | null,
  p: { campusId: string; tsquery: string; show: "latest" | "media"; filters: SearchFilters; now: string },
): SQL {
  return sql`(${and(postSearchTextConditions(p), postSearchViewerConditions(viewer?.id ?? null, p.now))})`;
}

/**
 * What a search asks of a post: the campus's top-level posts whose words satisfy `tsquery` (a
 * value, or a column of a list of searches: decision 0621), narrowed by the filters.
 */
export function postSearchTextConditions(p: {
  campusId: string;
  tsquery: string | SQL;
  show: "latest" | "media";
  filters: SearchFilters;
}): SQL {
  return sql`(${and(
    eq(posts.campusId, p.campusId),
    isNull(posts.parentId),
    sql`${posts.searchTsv} @@ to_tsquery('simple', ${p.tsquery})`,
    p.filters.category ? eq(posts.category, p.filters.category) : undefined,
    // Literal 0, as the media feed writes it.
    p.show === "media" ? sql`${posts.imgCount} > 0` : undefined,
    ...listingConditions(p.filters),
  )})`;
}

/**
 * What a search's viewer (a value, or a column of a list of viewers: decision 0621) may see:
 * no post of someone blocked either way (decision 0462, signed-in searches only), nothing
 * hidden, removed or by a suspended author but the viewer's own (decision 0546).
 */
export function postSearchViewerConditions(viewerId: string | SQL | null, now: string): SQL {
  return sql`(${and(
    viewerId !== null ? noBlockBetween(viewerId, posts.authorId) : undefined,
    shownToWithoutAuthor(viewerId, now),
  )})`;
}

/**
 * The posts query of a search, built but not run (the bench EXPLAINs it): the campus's
 * top-level posts whose words satisfy `tsquery`, filtered, in the sort's order after `after`,
 * read by `plan`.
 */
export function postSearchQuery(
  db: Queryable,
  viewer: { id: string } | null,
  p: {
    campusId: string;
    tsquery: string;
    show: "latest" | "media";
    filters: SearchFilters;
    after: CursorValue[] | null;
    limit: number;
    plan: PostSearchPlan;
    /** Decision 0546: the clock's now (ISO time), against which authors' suspensions are compared. */
    now: string;
  },
) {
  const keys = sortKeys(p.filters.sort);
  // The page is chosen on posts alone; only its rows are joined to their authors and get their
  // summaries' subqueries (first photo, saved by the viewer).
  const page =
    p.plan === "walk"
      ? walkPage(db, viewer, p, keys)
      : db
          .select({ id: posts.id })
          .from(posts)
          .where(and(postSearchConditions(viewer, p), p.after ? afterCursor(keys, p.after) : undefined))
          .orderBy(...orderByUnindexed(keys))
          .limit(p.limit)
          .as("page");
  return db
    .select({
      ...summaryColumns(viewer),
      cursorValues: sql<CursorValue[]>`json_build_array(${sql.join(keys.map(keyValue), sql`, `)})`,
    })
    .from(page)
    .innerJoin(posts, eq(posts.id, page.id))
    .innerJoin(user, eq(user.id, posts.authorId))
    .orderBy(...orderBy(keys));
}

/**
 * The walk (newest sort, no narrowing filter): the campus's next WALK_ROWS top-level posts in
 * index order, and of those the first `limit` that hold the words (and have media, and are not
 * sold, as asked). The outer LIMIT stops the walk as soon as the page is full.
 */
function walkPage(
  db: Queryable,
  viewer: { id: string } | null,
  p: {
    campusId: string;
    tsquery: string;
    show: "latest" | "media";
    filters: SearchFilters;
    after: CursorValue[] | null;
    limit: number;
    now: string;
  },
  keys: SortKey[],
) {
  const walked = db
    .select({
      id: posts.id,
      authorId: posts.authorId,
      createdAt: posts.createdAt,
      searchTsv: posts.searchTsv,
      imgCount: posts.imgCount,
      listingStatus: posts.listingStatus,
      moderationState: posts.moderationState,
    })
    .from(posts)
    .where(
      and(
        eq(posts.campusId, p.campusId),
        isNull(posts.parentId),
        p.after ? afterCursor(keys, p.after) : undefined,
      ),
    )
    .orderBy(...orderBy(keys))
    .limit(WALK_ROWS)
    .as("walked");
  return (
    db
      .select({ id: walked.id })
      .from(walked)
      .where(
        and(
          sql`${walked.searchTsv} @@ to_tsquery('simple', ${p.tsquery})`,
          p.show === "media" ? sql`${walked.imgCount} > 0` : undefined,
          // As listingConditions reads the sold filter (the only listing filter a walk takes).
          p.filters.includeSold ? undefined : sql`${walked.listingStatus} <> 'sold'`,
          viewer ? noBlockBetween(viewer.id, walked.authorId) : undefined,
          shownToWithoutAuthor(viewer?.id ?? null, p.now, walked),
        ),
      )
      // The inner order exactly (nulls last), so the walk's order is kept and no sort reads it all.
      .orderBy(sql`${walked.createdAt} desc nulls last`, sql`${walked.id} desc nulls last`)
      .limit(p.limit)
      .as("page")
  );
}

/**
 * spec 2 §2 /search Latest and Media tabs: the campus's top-level posts matching every typed
 * word (typos and a half-typed last word allowed), 10 a page, newest first or by price, narrowed
 * by the filters. A visitor on a private campus gets PostError 'private-campus' (the route
 * shows the sign-in modal with reason 'search'). Text with no word gives an empty page.
 */
export async function searchPosts(
  ctx: AppContext,
  viewer: Viewer | null,
  input: SearchPostsInput,
): Promise<PostSearchPage> {
  const campus = requireReadableCampus(ctx, viewer, input.campusId);
  const applied = applicableFilters(input.filters ?? DEFAULT_SEARCH_FILTERS);
  const keys = sortKeys(applied.sort);
  const values = input.cursor ? decodeSearchCursor(input.cursor, applied.sort, keys) : null;
  const size = pageSize(input.limit, SEARCH_LIMITS.hits);
  const empty = { items: [], nextCursor: null, applied };

  const groups = await expandWords(ctx.db, campus.id, searchWords(normaliseSearchText(input.q)));
  if (!groups) return empty;

  const query = (plan: PostSearchPlan) =>
    postSearchQuery(ctx.db, viewer, {
      campusId: campus.id,
      tsquery: toTsQuery(groups),
      show: input.show,
      filters: applied,
      after: values,
      limit: size + 1,
      plan,
      now: visibilityNow(ctx.clock.now()),
    });
  const plan = choosePostSearchPlan(groups, input.show, applied);
  let rows = await query(plan);
  // A walk that found less than a page may have stopped at WALK_ROWS before later matches.
  if (plan === "walk" && rows.length <= size) rows = await query("bitmap");

  const kept = rows.slice(0, size);
  const last = kept[kept.length - 1];
  return {
    items: kept.map((row) => toSummary(ctx, viewer, row)),
    nextCursor: rows.length > size && last ? encodeSearchCursor(applied.sort, last.cursorValues) : null,
    applied,
  };
}
