import { eq, isNotNull, isNull, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { type PreparableQuery, preparedStatement } from "../db/prepared";
import { postLikes, posts, user } from "../db/schema";
import { type CursorKey, cursorTime } from "../lists/cursor";
import { keysetPage } from "../lists/pages";
import { shownTo } from "../moderation/visibility";
import { summaryColumns } from "./views";

/**
 * The queries behind the post lists (feed.ts), built but not run: EXPLAIN checks them with values
 * (indexes.test.ts) and the lists run them as prepared statements with placeholders.
 */

/** The feed's flags: which grid, and the listing filters (decision 0170). */
export interface FeedFilters {
  /** spec 2 §2 /media: only posts with photos or videos, 15 a page. */
  media?: boolean;
  /** Decision 0170 'Free': only listings priced 0. */
  free?: boolean;
  /** Decision 0170 'Show sold': sold listings too. */
  showSold?: boolean;
}

/**
 * A value of a list query, or a placeholder for it: the same builders give the queries
 * EXPLAIN checks (values) and the prepared statements the lists run (placeholders).
 */
type Param<T> = T | Placeholder;
type ViewerParam = { id: Param<string> } | null;
type KeyParam = CursorKey | { time: Placeholder; id: Placeholder } | null;
/** Rows to fetch: the page size plus the one extra row that says another page exists. */
type LimitParam = Param<number>;

/**
 * A post list query: posts with their authors, filtered, newest first by `time`. Decision 0546:
 * every list leaves out what the viewer may not see (hidden, removed, a suspended author's) here,
 * once, as a filter on the rows the list's index gives: the index and the page size stay.
 */
function postsQuery(
  db: Queryable,
  viewer: ViewerParam,
  options: {
    where: (SQL | undefined)[];
    time: typeof posts.lastModified | typeof posts.createdAt;
    key: KeyParam;
    limit: LimitParam;
    now: Param<string>;
  },
) {
  const query = db
    .select({ ...summaryColumns(viewer), cursorTime: cursorTime(options.time) })
    .from(posts)
    .innerJoin(user, eq(user.id, posts.authorId))
    .$dynamic();
  return keysetPage(
    query,
    { time: options.time, id: posts.id, idKind: "uuid" },
    { ...options, where: [...options.where, shownTo(viewer?.id ?? null, options.now)] },
  );
}

/** The list queries, built but not run: for EXPLAIN (indexes.test.ts) and the prepared statements below. */
export const listQueries = {
  /**
   * spec 2 §7 Feed and Media feed: top-level posts of the campus by lastModified (with
   * `media`, only those with img_count ≥ 1), optionally of a category. (decision
   * 0170, 0171): sold listings only with `showSold`, free ones only with `free`, and never a
   * listing unchanged since `cutoff`. Every condition on a partial index's predicate is a
   * literal (not a parameter), so the planner matches it: posts_feed_unsold_idx,
   * posts_feed_unsold_category_idx, posts_feed_idx, posts_feed_category_idx, posts_feed_free_idx,
   * posts_feed_free_category_idx, posts_media_unsold_idx, posts_media_feed_idx.
   */
  feed(db: Queryable, viewer: ViewerParam, p: FeedQueryParams) {
    return postsQuery(db, viewer, {
      where: [
        eq(posts.campusId, p.campusId),
        isNull(posts.parentId),
        p.media ? sql`${posts.imgCount} > 0` : undefined,
        p.category ? eq(posts.category, p.category) : undefined,
        p.free ? sql`${posts.priceCents} = 0` : undefined,
        p.showSold ? undefined : sql`${posts.listingStatus} <> 'sold'`,
        // Decision 0171: expired listings are all older than the cutoff, so this filter only
        // ever skips rows at the tail of the index range, never a page's worth in the middle.
        sql`(${posts.lastModified} >= ${p.cutoff}::timestamptz or (${posts.priceCents} is null and ${posts.condition} is null and ${posts.listingKind} = 'selling'))`,
      ],
      time: posts.lastModified,
      key: p.key,
      limit: p.limit,
      now: p.now,
    });
  },
  /** spec 2 §7 Profile posts: not 'new user', top-level; posts_profile_posts_idx. */
  profilePosts(db: Queryable, viewer: ViewerParam, p: ProfileQueryParams) {
    return postsQuery(db, viewer, {
      where: [
        eq(posts.authorId, p.userId),
        eq(posts.campusId, p.campusId),
        isNull(posts.parentId),
        sql`${posts.type} = 'post'`,
      ],
      time: posts.lastModified,
      key: p.key,
      limit: p.limit,
      now: p.now,
    });
  },
  /** spec 2 §7 Profile photos: img_count ≥ 1, by createdAt; posts_profile_photos_idx. */
  profilePhotos(db: Queryable, viewer: ViewerParam, p: ProfileQueryParams) {
    return postsQuery(db, viewer, {
      where: [
        eq(posts.authorId, p.userId),
        eq(posts.campusId, p.campusId),
        isNull(posts.parentId),
        sql`${posts.imgCount} > 0`,
      ],
      time: posts.createdAt,
      key: p.key,
      limit: p.limit,
      now: p.now,
    });
  },
  /** spec 2 §7 Profile replies: the user's comments by lastModified; posts_profile_replies_idx. */
  profileReplies(db: Queryable, viewer: ViewerParam, p: ProfileQueryParams) {
    return postsQuery(db, viewer, {
      where: [eq(posts.authorId, p.userId), eq(posts.campusId, p.campusId), isNotNull(posts.parentId)],
      time: posts.lastModified,
      key: p.key,
      limit: p.limit,
      now: p.now,
    });
  },
  /**
   * spec 2 §7 Liked posts: what `userId` saved on the campus, most recently saved
   * first (decision 0081: save time, not the post's lastModified, so the index
   * post_likes_user_saved_idx serves it and a page never reshuffles when a saved post is bumped).
   */
  saved(db: Queryable, viewer: ViewerParam, p: ProfileQueryParams) {
    const query = db
      .select({
        ...summaryColumns(viewer),
        cursorTime: cursorTime(postLikes.createdAt),
        savedPostId: postLikes.postId,
      })
      .from(postLikes)
      .innerJoin(posts, eq(posts.id, postLikes.postId))
      .innerJoin(user, eq(user.id, posts.authorId))
      .$dynamic();
    return keysetPage(
      query,
      { time: postLikes.createdAt, id: postLikes.postId, idKind: "uuid" },
      {
        where: [
          eq(postLikes.userId, p.userId),
          eq(postLikes.campusId, p.campusId),
          // Decision 0546: as postsQuery, on the saved post and its author.
          shownTo(viewer?.id ?? null, p.now),
        ],
        key: p.key,
        limit: p.limit,
      },
    );
  },
};

/** What the feed query (home and media) is asked for (the same flags as FeedFilters, plus the expiry cutoff). */
interface FeedQueryParams extends FeedFilters {
  campusId: Param<string>;
  category: Param<string> | null;
  /** Decision 0171: listings last changed before this (ISO time) have expired. */
  cutoff: Param<string>;
  key: KeyParam;
  limit: LimitParam;
  /** Decision 0546: the clock's now, against which authors' suspensions are compared (ISO time). */
  now: Param<string>;
}

interface ProfileQueryParams {
  userId: Param<string>;
  campusId: Param<string>;
  key: KeyParam;
  limit: LimitParam;
  /** Decision 0546: the clock's now (ISO time). */
  now: Param<string>;
}

type ListName = keyof typeof listQueries;
type ListRow<N extends ListName> = Awaited<ReturnType<(typeof listQueries)[N]>>[number];

/** What a list is asked for, as values; each becomes a placeholder of the prepared statement. */
interface ListValues {
  viewerId: string | null;
  campusId: string;
  userId?: string;
  category?: string | null;
  filters?: FeedFilters;
  cutoff?: string;
  /** Decision 0546: the clock's now (ISO time), a parameter of every list. */
  now: string;
  key: CursorKey | null;
  limit: number;
}

/**
 * Runs a list as a prepared statement (server/db/prepared.ts): one per shape (viewer or not,
 * category or not, first page or not).
 */
export function runList<N extends ListName>(
  db: Queryable,
  name: N,
  values: ListValues,
): Promise<ListRow<N>[]> {
  const filters = values.filters ?? {};
  const shape = [
    name,
    values.viewerId ? "viewer" : "visitor",
    values.category ? "category" : "all",
    filters.media ? "media" : "posts",
    filters.free ? "free" : "priced",
    filters.showSold ? "sold" : "unsold",
    values.key ? "after" : "first",
  ].join("_");
  const statement = preparedStatement(db, `list_${shape}`, () => {
    const params = {
      campusId: sql.placeholder("campusId"),
      userId: sql.placeholder("userId"),
      category: values.category ? sql.placeholder("category") : null,
      key: values.key ? { time: sql.placeholder("keyTime"), id: sql.placeholder("keyId") } : null,
      limit: sql.placeholder("limit"),
      cutoff: sql.placeholder("cutoff"),
      now: sql.placeholder("now"),
      media: filters.media === true,
      free: filters.free === true,
      showSold: filters.showSold === true,
    };
    const viewer = values.viewerId ? { id: sql.placeholder("viewerId") } : null;
    const build = listQueries[name] as (
      db: Queryable,
      viewer: ViewerParam,
      p: typeof params,
    ) => PreparableQuery;
    return build(db, viewer, params);
  });
  return statement.execute({
    viewerId: values.viewerId ?? undefined,
    campusId: values.campusId,
    userId: values.userId,
    category: values.category ?? undefined,
    keyTime: values.key?.time,
    keyId: values.key?.id,
    cutoff: values.cutoff,
    now: values.now,
    limit: values.limit,
  }) as Promise<ListRow<N>[]>;
}
