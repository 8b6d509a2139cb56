import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { type CursorKey, decodeCursor } from "../lists/cursor";
import { type Page, pageSize, toPage } from "../lists/pages";
import { visibilityNow } from "../moderation/visibility";
import { requireParticipant, requireReadableCampus } from "./access";
import { categoryFilter } from "./categories.shared";
import { PostError } from "./errors";
import type { PostListName } from "./list-names.shared";
import { type FeedFilters, runList } from "./list-queries";
import { LISTING_EXPIRY_MS } from "./listing.shared";
import { PAGE_SIZES, POST_MESSAGES } from "./schemas";
import { type PostSummary, toSummary } from "./views";

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

type Row = Parameters<typeof toSummary>[2] & { cursorTime: string };

export function page(ctx: AppContext, viewer: Viewer | null, rows: Row[], size: number): Page<PostSummary> {
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
    now: visibilityNow(ctx.clock.now()),
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
  const saver = requireParticipant(viewer, "like", ctx.clock.now());
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
    now: visibilityNow(ctx.clock.now()),
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
    now: visibilityNow(ctx.clock.now()),
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
 * The page after `cursor` of a list named as the browser names it (server/posts/list-names.shared.ts):
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
