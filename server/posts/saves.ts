import { and, eq, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUuid } from "../db/ids";
import { campuses, postLikes, posts, user } from "../db/schema";
import { type CursorKey, cursorTime, decodeCursor } from "../lists/cursor";
import { keysetPage, type Page, pageSize, toPage } from "../lists/pages";
import { toUserSummary, type UserSummary, userSummaryColumns } from "../lists/user-summary";
import { postsShownTo } from "../moderation/visibility";
import { notify } from "../notifications/notify";
import { assertCampusReadable, requireParticipant } from "./access";
import { PostError } from "./errors";
import { assertOwnCampus } from "./input";
import { lockPost } from "./post-lock";
import type { PostRef } from "./posts";
import { PAGE_SIZES, POST_MESSAGES } from "./schemas";

/**
 * Saves (decision 0131: they live with posts; decision 0132: the spec's data calls them
 * likes, hence the post_likes table and /post/{id}/likes): saving and who saved
 * (decision 0150).
 */

/** The read query of this file, built but not run, for EXPLAIN (indexes.test.ts, bench). */
export const saveQueries = {
  /** Who saved a post, newest first, from post_likes_post_idx. */
  savers(db: Queryable, p: { postId: string; key: CursorKey | null; size: number }) {
    const query = db
      .select({
        cursorTime: cursorTime(postLikes.createdAt),
        ...userSummaryColumns(user),
      })
      .from(postLikes)
      .innerJoin(user, eq(user.id, postLikes.userId))
      .$dynamic();
    return keysetPage(
      query,
      { time: postLikes.createdAt, id: postLikes.userId, idKind: "text" },
      { where: [eq(postLikes.postId, p.postId)], key: p.key, limit: p.size + 1 },
    );
  },
};

/**
 * spec 2 §4 'Save/like': saves or unsaves a top-level post for the viewer, keeping
 * like_count in step. Signed out → ParticipationRefused with reason 'like'.
 * Concurrent toggles of one post take turns on its row lock. Another campus's post
 * cannot be saved, as it cannot be commented on (decision 0117); a save made there
 * before that rule can still be removed.
 */
export async function toggleSave(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<{ saved: boolean; saveCount: number }> {
  const saver = requireParticipant(viewer, "like", ctx.clock.now());
  return ctx.db.transaction(async (tx) => {
    const post = await lockPost(tx, postId);
    if (post.type !== "post" || post.parentId !== null) {
      throw new PostError("invalid-input", POST_MESSAGES.cannotSave);
    }
    const removed = await tx
      .delete(postLikes)
      .where(and(eq(postLikes.postId, postId), eq(postLikes.userId, saver.id)))
      .returning({ postId: postLikes.postId });
    const saved = removed.length === 0;
    if (saved) {
      assertOwnCampus(saver, post.campusId);
      // Decision 0546: a post this student is not shown cannot be saved by its id (unsaving stays).
      if (!(await postsShownTo(tx, [postId], saver.id, ctx.clock.now()))) {
        throw new PostError("not-found", POST_MESSAGES.postGone);
      }
      await tx
        .insert(postLikes)
        .values({ postId, userId: saver.id, campusId: post.campusId, createdAt: ctx.clock.now() });
      // spec 2 §3 'like' to the post's owner (decision 0250).
      await notify(tx, ctx, {
        type: "like",
        to: post.authorId,
        actorId: saver.id,
        campusId: post.campusId,
        postId,
      });
    }
    const [counted] = await tx
      .update(posts)
      .set({ saveCount: saved ? sql`${posts.saveCount} + 1` : sql`greatest(${posts.saveCount} - 1, 0)` })
      .where(eq(posts.id, postId))
      .returning({ saveCount: posts.saveCount });
    return { saved, saveCount: counted?.saveCount ?? 0 };
  });
}

export interface ListSaversInput extends PostRef {
  cursor?: string | null;
  limit?: number;
}

/**
 * spec 2 §2 '/post/{id}/likes': the people who saved a post, most recent first,
 * keyset-paged (post_likes_post_idx). Null when the post is not on this campus.
 */
export async function listPostSavers(
  ctx: AppContext,
  viewer: Viewer | null,
  input: ListSaversInput,
): Promise<Page<UserSummary> | null> {
  if (!isUuid(input.postId)) return null;
  const [post] = await ctx.db
    .select({ id: posts.id, privacy: campuses.privacy, generic: campuses.generic })
    .from(posts)
    .innerJoin(campuses, eq(campuses.id, posts.campusId))
    .where(and(eq(posts.id, input.postId), eq(posts.campusId, input.campusId)))
    .limit(1);
  // Decision 0546: nor its savers listed.
  if (post && !(await postsShownTo(ctx.db, [post.id], viewer?.id ?? null, ctx.clock.now()))) return null;
  if (!post) return null;
  assertCampusReadable(viewer, post);
  const size = pageSize(input.limit, PAGE_SIZES.savers);
  const key = input.cursor ? decodeCursor(input.cursor, "text") : null;
  const rows = await saveQueries.savers(ctx.db, { postId: post.id, key, size });
  const now = ctx.clock.now();
  return toPage(
    rows,
    size,
    (row) => row.id,
    ({ cursorTime: _time, ...saver }) => toUserSummary(saver, now),
  );
}
