import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { ParticipationRefused } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import { endAdsOfPost } from "../ads/lifecycle";
import { processPendingRefunds } from "../ads/refunds";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { isUuid } from "../db/ids";
import { listingWatches, posts } from "../db/schema";
import { notify } from "../notifications/notify";
import { enqueueSavedSearchMatch, wakeSavedSearchMatcher } from "../search/saved-search-matching-queue";
import { onListingStatusChange } from "../trade/listing-hooks";
import { requireParticipant } from "./access";
import { PostError } from "./errors";
import { assertOwnCampus } from "./input";
import {
  isBoostable,
  isExpired,
  LISTING_MESSAGES,
  LISTING_STATUSES,
  type ListingStatus,
  notBoostableMessage,
} from "./listing.shared";
import { type LockedPost, lockPost } from "./post-lock";
import { POST_MESSAGES } from "./schemas";

/**
 * Listing essentials (decision 0170; beyond the spec): the owner marks a listing
 * available, reserved or sold, renews a stale one, and others ask to be told when a reserved
 * one is available again. Every rule here, whatever the route sends.
 */

/** The owner of a top-level post, signed in; anyone else is refused whatever id they send. */
function requireOwner(viewer: Viewer | null, post: LockedPost): Viewer {
  if (!viewer || viewer.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "post" });
  if (post.authorId !== viewer.id || post.type !== "post" || post.parentId !== null) {
    throw new PostError("forbidden", LISTING_MESSAGES.notAListing);
  }
  return viewer;
}

const statusSchema = z.enum(LISTING_STATUSES);

/**
 * Decision 0170: Available → Reserved → Sold, and back to Available, by the owner only. Any
 * post of the owner may be marked (a text-only 'selling my bike' post too); sold → reserved
 * is refused (mark it available first). Marking the status it already has changes nothing.
 * Going back to available hands the watchers to listingAvailableAgain in the same transaction.
 */
export async function setListingStatus(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { postId: string; status: string },
): Promise<{ status: ListingStatus }> {
  const parsed = statusSchema.safeParse(input.status);
  if (!parsed.success) throw new PostError("invalid-input", LISTING_MESSAGES.badListingField);
  const next = parsed.data;
  const result = await ctx.db.transaction(async (tx) => {
    const post = await lockPost(tx, input.postId);
    requireOwner(viewer, post);
    const current = post.listingStatus;
    if (current === next) return { status: next };
    if (current === "sold" && next === "reserved") {
      throw new PostError("listing-state", LISTING_MESSAGES.soldCannotBeReserved);
    }
    // Decision 0604: the listing's deal and open offers follow its status (or refuse it).
    await onListingStatusChange(
      ctx,
      tx,
      { id: post.id, campusId: post.campusId, authorId: post.authorId },
      next,
    );
    // Not a bump: marking reserved or sold does not move the post in the feed (decision 0171).
    await tx.update(posts).set({ listingStatus: next }).where(eq(posts.id, post.id));
    // Decision 0272: a sold listing's ad ends and its unused whole days are refunded.
    if (next === "sold") await endAdsOfPost(ctx, tx, post.id, "Refund: post sold");
    if (next === "available") {
      const watchers = await tx
        .select({ userId: listingWatches.userId })
        .from(listingWatches)
        .where(eq(listingWatches.postId, post.id));
      await listingAvailableAgain(
        ctx,
        tx,
        { id: post.id, campusId: post.campusId, authorId: post.authorId },
        watchers.map((row) => row.userId),
      );
    }
    return { status: next };
  });
  if (next === "sold") await processPendingRefunds(ctx);
  if (next === "available") wakeSavedSearchMatcher(ctx);
  return result;
}

/**
 * Decision 0172 'Notify me if it's available again': the one place a listing that is available
 * again reaches the people who asked, inside the transaction that made it available, so each
 * notification (decision 0250) commits with the status change, or neither does. Each watch is
 * answered once.
 */
export async function listingAvailableAgain(
  ctx: AppContext,
  tx: Tx,
  post: { id: string; campusId: string; authorId: string },
  watcherIds: readonly string[],
): Promise<void> {
  // Decision 0621: Available again, it is matched against the saved searches (each once).
  await enqueueSavedSearchMatch(tx, ctx, post);
  if (watcherIds.length === 0) return;
  for (const watcherId of watcherIds) {
    await notify(tx, ctx, {
      type: "available again",
      to: watcherId,
      actorId: post.authorId,
      campusId: post.campusId,
      postId: post.id,
    });
  }
  await tx.delete(listingWatches).where(eq(listingWatches.postId, post.id));
}

/**
 * Decision 0171: an owner renews a listing that has gone LISTING_EXPIRY_DAYS
 * without a change: its last_modified becomes now, which brings it back to the top of the feed.
 * A fresh listing cannot be renewed (no bumping to the top at will), nor a sold one.
 */
export async function renewListing(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<{ lastModified: Date }> {
  return ctx.db.transaction(async (tx) => {
    const post = await lockPost(tx, postId);
    requireOwner(viewer, post);
    const now = ctx.clock.now();
    const expired = isExpired(
      {
        priceCents: post.priceCents,
        condition: post.condition,
        kind: post.listingKind,
        lastModified: post.lastModified,
      },
      now,
    );
    if (!expired || post.listingStatus === "sold") {
      throw new PostError("listing-state", LISTING_MESSAGES.notExpired);
    }
    await tx.update(posts).set({ lastModified: now }).where(eq(posts.id, post.id));
    return { lastModified: now };
  });
}

/**
 * Decision 0172: 'Notify me if it's available again' on someone else's reserved listing of one's
 * own campus (signed in; the gate of saving). Asking twice keeps one watch.
 */
export async function watchListing(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<{ watching: true }> {
  const watcher = requireParticipant(viewer, "like", ctx.clock.now());
  return ctx.db.transaction(async (tx) => {
    const post = await lockPost(tx, postId);
    assertOwnCampus(watcher, post.campusId);
    if (post.authorId === watcher.id) throw new PostError("invalid-input", LISTING_MESSAGES.watchOwn);
    if (post.type !== "post" || post.parentId !== null || post.listingStatus !== "reserved") {
      throw new PostError("listing-state", LISTING_MESSAGES.watchOnlyReserved);
    }
    await tx
      .insert(listingWatches)
      .values({ postId: post.id, userId: watcher.id, campusId: post.campusId, createdAt: ctx.clock.now() })
      .onConflictDoNothing();
    return { watching: true };
  });
}

/** Takes back a watch (nothing to do when there is none). */
export async function unwatchListing(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<{ watching: false }> {
  const watcher = requireParticipant(viewer, "like", ctx.clock.now());
  if (!isUuid(postId)) throw new PostError("not-found", POST_MESSAGES.postGone);
  await ctx.db
    .delete(listingWatches)
    .where(and(eq(listingWatches.postId, postId), eq(listingWatches.userId, watcher.id)));
  return { watching: false };
}

/** Whether `viewerId` watches the post (the post page's button). */
export async function isWatching(ctx: AppContext, viewerId: string, postId: string): Promise<boolean> {
  if (!isUuid(postId)) return false;
  const [row] = await ctx.db
    .select({ postId: listingWatches.postId })
    .from(listingWatches)
    .where(and(eq(listingWatches.postId, postId), eq(listingWatches.userId, viewerId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Decision 0170 'can no longer be boosted', for the ads: throws PostError 'listing-state'
 * (409, 'Sold listings can't be boosted.', or the reserved wording) when it is not available, 'not-found' when it does not
 * exist. Who may boost (the owner) stays the ads issue's check. Pass the boost's transaction
 * as `db` to read the status it commits with.
 */
export async function assertListingBoostable(
  ctx: AppContext,
  postId: string,
  db: Queryable = ctx.db,
): Promise<void> {
  if (!isUuid(postId)) throw new PostError("not-found", POST_MESSAGES.postGone);
  const [post] = await db
    .select({ status: posts.listingStatus })
    .from(posts)
    .where(eq(posts.id, postId))
    .limit(1);
  if (!post) throw new PostError("not-found", POST_MESSAGES.postGone);
  if (!isBoostable(post)) throw new PostError("listing-state", notBoostableMessage(post.status));
}
