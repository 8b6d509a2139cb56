import { eq, isNotNull, isNull, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { type PreparableQuery, preparedStatement } from "../db/prepared";
import { postLikes, posts, user } from "../db/schema";
import { requireParticipant, requireReadableCampus } from "./access";
import { categoryFilter } from "./categories";
import { type CursorKey, cursorTime, decodeCursor, keysetPage, type Page, pageSize, toPage } from "./cursor";
import { PostError } from "./errors";
import type { PostListName } from "./list-names";
import { LISTING_EXPIRY_MS } from "./listing";
import { PAGE_SIZES, POST_MESSAGES } from "./schemas";
import { type PostSummary, summaryColumns, toSummary } from "./views";

/**
 * The lists of posts (spec 2 §2, §7), each keyset-paged (decision 0081): a page
 * ends at the (time, id) of its last post and the next starts strictly after it,
 * so nothing is repeated or skipped while new posts arrive above. A post bumped
 * by a reply while someone scrolls moves above their position: it is not shown
 * twice and appears at the top on the next load. Each query is served by an
 * index of server/db/schema/posts.ts (EXPLAIN checked in indexes.test.ts).
 */

interface ListBase {
  /** The campus of the request's host (every list is per campus). */
  campusId: string;
  /** `nextCursor` of the previous page; none for the first page. */
  cursor?: string | null;
  /** Page size, 1…50; each list has the spec's size by default. */
  limit?: number;
}

/** The feed's flags: which grid, and the listing filters (decision 0170). */
export interface FeedFilters {
  /** spec 2 §2 /media: only posts with photos or videos, 15 a page. */
  media?: boolean;
  /** Decision 0170 'Free': only listings priced 0. */
  free?: boolean;
  /** Decision 0170 'Show sold': sold listings too. */
  showSold?: boolean;
}

export interface FeedInput extends ListBase, FeedFilters {
  /** A category value, or null / 'all' for every category (spec 2 §2 category filter; not on /media). */
  category?: string | null;
}

export interface ProfileListInput extends ListBase {
  /** Whose profile. */
  userId: string;
}

function keyOf(cursor: string | null | undefined): CursorKey | null {
  return cursor ? decodeCursor(cursor, "uuid") : null;
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

/** A post list query: posts with their authors, filtered, newest first by `time`. */
function postsQuery(
  db: Queryable,
  viewer: ViewerParam,
  options: {
    where: (SQL | undefined)[];
    time: typeof posts.lastModified | typeof posts.createdAt;
    key: KeyParam;
    limit: LimitParam;
  },
) {
  const query = db
    .select({ ...summaryColumns(viewer), cursorTime: cursorTime(options.time) })
    .from(posts)
    .innerJoin(user, eq(user.id, posts.authorId))
    .$dynamic();
  return keysetPage(query, { time: options.time, id: posts.id, idKind: "uuid" }, options);
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
    });
  },
  /** spec 2 §7 Profile replies: the user's comments by lastModified; posts_profile_replies_idx. */
  profileReplies(db: Queryable, viewer: ViewerParam, p: ProfileQueryParams) {
    return postsQuery(db, viewer, {
      where: [eq(posts.authorId, p.userId), eq(posts.campusId, p.campusId), isNotNull(posts.parentId)],
      time: posts.lastModified,
      key: p.key,
      limit: p.limit,
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
        where: [eq(postLikes.userId, p.userId), eq(postLikes.campusId, p.campusId)],
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
}

interface ProfileQueryParams {
  userId: Param<string>;
  campusId: Param<string>;
  key: KeyParam;
  limit: LimitParam;
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
  key: CursorKey | null;
  limit: number;
}

/**
 * Runs a list as a prepared statement (server/db/prepared.ts): one per shape (viewer or not,
 * category or not, first page or not).
 */
function runList<N extends ListName>(db: Queryable, name: N, values: ListValues): Promise<ListRow<N>[]> {
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
    limit: values.limit,
  }) as Promise<ListRow<N>[]>;
}

type Row = Parameters<typeof toSummary>[2] & { cursorTime: string };

function page(ctx: AppContext, viewer: Viewer | null, rows: Row[], size: number): Page<PostSummary> {
  return toPage(
    rows,
    size,
    (row) => row.id,
    (row) => toSummary(ctx, viewer, row),
  );
}

/**
 * Decision 0361: where a list reads. A visitor's lists (the same for every visitor, and a
 * moment old from the page cache anyway) read the replica when there is one; a signed-in
 * viewer's read the primary, so a student sees their own post, save or reply at once.
 */
export function listReads(ctx: AppContext, viewer: Viewer | null): Queryable {
  return viewer ? ctx.db : (ctx.listReadDb ?? ctx.db);
}

/**
 * spec 2 §2 /home and /media: the campus's top-level posts by lastModified, newest first.
 * /home ('new user' posts included: the feed shows them as banners) takes the campus's page
 * size (15, or 25 where configured) and a category; /media (`media`) only posts with photos or
 * videos, 15 a page. Decision 0171: sold and expired listings are left out unless asked for
 * (decision 0170, 0171). Sponsored posts are not part of this list: the ads issue inserts them
 * after every 4th post of a page.
 */
export async function listFeed(
  ctx: AppContext,
  viewer: Viewer | null,
  input: FeedInput,
): Promise<Page<PostSummary>> {
  const campus = requireReadableCampus(ctx, viewer, input.campusId);
  const media = input.media === true;
  const size = pageSize(input.limit, media ? PAGE_SIZES.media : campus.feedPageSize);
  const rows = await runList(listReads(ctx, viewer), "feed", {
    viewerId: viewer?.id ?? null,
    campusId: campus.id,
    category: media ? null : categoryFilter(input.category),
    filters: { media, free: input.free === true, showSold: input.showSold === true },
    cutoff: listingCutoff(ctx).toISOString(),
    key: keyOf(input.cursor),
    limit: size + 1,
  });
  return page(ctx, viewer, rows, size);
}

/** Decision 0171: listings last changed before this have expired. */
export function listingCutoff(ctx: AppContext): Date {
  return new Date(ctx.clock.now().getTime() - LISTING_EXPIRY_MS);
}

/**
 * spec 2 §2 /saved: the viewer's saved posts on this campus, 10 a page, most
 * recently saved first. Signed out → ParticipationRefused (sign-in, 'like').
 */
export async function listSaved(
  ctx: AppContext,
  viewer: Viewer | null,
  input: ListBase,
): Promise<Page<PostSummary>> {
  const saver = requireParticipant(viewer, "like");
  return listSavedBy(ctx, saver, { ...input, userId: saver.id });
}

async function listSavedBy(
  ctx: AppContext,
  viewer: Viewer | null,
  input: ProfileListInput,
): Promise<Page<PostSummary>> {
  const campus = requireReadableCampus(ctx, viewer, input.campusId);
  const size = pageSize(input.limit, PAGE_SIZES.saved);
  const rows = await runList(ctx.db, "saved", {
    viewerId: viewer?.id ?? null,
    userId: input.userId,
    campusId: campus.id,
    key: keyOf(input.cursor),
    limit: size + 1,
  });
  return toPage(
    rows,
    size,
    (row) => row.savedPostId,
    (row) => toSummary(ctx, viewer, row),
  );
}

async function profileList(
  ctx: AppContext,
  viewer: Viewer | null,
  input: ProfileListInput,
  list: "profilePosts" | "profilePhotos" | "profileReplies",
): Promise<Page<PostSummary>> {
  const campus = requireReadableCampus(ctx, viewer, input.campusId);
  const size = pageSize(input.limit, PAGE_SIZES.profile);
  const rows = await runList(listReads(ctx, viewer), list, {
    viewerId: viewer?.id ?? null,
    userId: input.userId,
    campusId: campus.id,
    key: keyOf(input.cursor),
    limit: size + 1,
  });
  return page(ctx, viewer, rows, size);
}

/** spec 2 §2 profile tab Posts (show=home): the user's top-level posts on this campus, no 'new user' posts. */
export function listProfilePosts(ctx: AppContext, viewer: Viewer | null, input: ProfileListInput) {
  return profileList(ctx, viewer, input, "profilePosts");
}

/** spec 2 §2 profile tab Photos (show=photos): the user's top-level posts with photos or videos, newest first. */
export function listProfilePhotos(ctx: AppContext, viewer: Viewer | null, input: ProfileListInput) {
  return profileList(ctx, viewer, input, "profilePhotos");
}

/** spec 2 §2 profile tab Replies (show=replies): the user's comments, by their lastModified. */
export function listProfileReplies(ctx: AppContext, viewer: Viewer | null, input: ProfileListInput) {
  return profileList(ctx, viewer, input, "profileReplies");
}

/** spec 2 §2 profile tab Likes (show=likes): what the user saved on this campus, most recently saved first. */
export function listProfileSaves(
  ctx: AppContext,
  viewer: Viewer | null,
  input: ProfileListInput,
): Promise<Page<PostSummary>> {
  return listSavedBy(ctx, viewer, input);
}

/** What `listPage` is asked for: a list's own input, by name (decision 0106). */
export interface ListPageInput extends ListBase {
  category?: string | null;
  /** feed, media: the listing filters (decision 0170). */
  free?: boolean;
  showSold?: boolean;
  /** Whose profile, for the profile lists. */
  userId?: string | null;
}

/**
 * The page after `cursor` of a list named as the browser names it (server/posts/list-names.ts):
 * the same functions the pages' loaders call, so the same rules and permissions.
 */
export function listPage(
  ctx: AppContext,
  viewer: Viewer | null,
  list: PostListName,
  input: ListPageInput,
): Promise<Page<PostSummary>> {
  const base = { campusId: input.campusId, cursor: input.cursor, limit: input.limit };
  const filters = { free: input.free, showSold: input.showSold };
  if (list === "feed") return listFeed(ctx, viewer, { ...base, ...filters, category: input.category });
  if (list === "media") return listFeed(ctx, viewer, { ...base, ...filters, media: true });
  if (list === "saved") return listSaved(ctx, viewer, base);
  if (!input.userId) throw new PostError("invalid-input", POST_MESSAGES.badCursor);
  const profile = { ...base, userId: input.userId };
  if (list === "profile-posts") return listProfilePosts(ctx, viewer, profile);
  if (list === "profile-photos") return listProfilePhotos(ctx, viewer, profile);
  if (list === "profile-replies") return listProfileReplies(ctx, viewer, profile);
  return listProfileSaves(ctx, viewer, profile);
}
