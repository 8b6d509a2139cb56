import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { endAdsOfPost } from "../ads/lifecycle";
import { processPendingRefunds } from "../ads/refunds";
import type { AppContext } from "../context";
import { isUuid } from "../db/ids";
import { postLikes, postMedia, posts, user } from "../db/schema";
import { closeOffersOfListing } from "../trade/listing-hooks";
import { PostError } from "./errors";
import { removePostFiles, storedFileKeys } from "./media";
import { POST_MESSAGES } from "./schemas";

/**
 * Removing a post or a comment with everything below it (decision 0150): the one transaction
 * deletePost (server/posts/posts.ts) and deleteComment (server/posts/comments.ts) share,
 * each after its own permission check.
 */

export interface DeletedPost {
  id: string;
  /** 'post' → 'Your post was deleted'; 'comment' → 'Comment Removed' (spec 2 §8). */
  kind: "post" | "comment";
  /** For a comment: its thread's top-level post, the page to stay on. */
  rootId: string | null;
  /** How many rows went: the post and every nested comment. */
  removed: number;
}

/** What a permission check sees of the row to delete. */
export interface RemovalTarget {
  id: string;
  authorId: string;
  parentId: string | null;
  rootId: string | null;
  type: string;
}

/**
 * spec 2 §4 'Post lifecycle': one transaction removes the row, every nested comment
 * (recursively), their gallery rows and saves, and decrements totalPosts for a top-level
 * post or the parent's comment_count for a comment. A row of the other kind than `kind` is
 * not found here; `mayDelete` is the caller's permission check (spec 2 §6). The stored files
 * go after the commit; a failure there is logged ('Couldn't delete post images') and does
 * not undo the delete.
 */
export async function removeWithReplies(
  ctx: AppContext,
  viewer: Viewer,
  postId: string,
  kind: DeletedPost["kind"],
  mayDelete: (target: RemovalTarget, viewer: Viewer) => boolean,
): Promise<DeletedPost> {
  if (!isUuid(postId)) throw new PostError("not-found", POST_MESSAGES.postGone);

  const result = await ctx.db.transaction(async (tx) => {
    const [target] = await tx
      .select({
        id: posts.id,
        authorId: posts.authorId,
        parentId: posts.parentId,
        rootId: posts.rootId,
        type: posts.type,
      })
      .from(posts)
      .where(eq(posts.id, postId))
      .limit(1);
    if (!target || (target.parentId === null ? "post" : "comment") !== kind)
      throw new PostError("not-found", POST_MESSAGES.postGone);
    if (!mayDelete(target, viewer)) throw new PostError("forbidden", POST_MESSAGES.notYours);

    // The row and every reply below it, locked in id order (as createComment locks its chain).
    const subtree = await tx
      .select({ id: posts.id })
      .from(posts)
      .where(
        sql`${posts.id} in (
          with recursive subtree(id) as (
            select id from posts where id = ${postId}::uuid
            union all
            select p.id from posts p join subtree s on p.parent_id = s.id
          )
          select id from subtree
        )`,
      )
      .orderBy(asc(posts.id))
      .for("update");
    const ids = subtree.map((row) => row.id);
    if (!ids.includes(postId)) throw new PostError("not-found", POST_MESSAGES.postGone);

    const files = await tx
      .select({ imgPath: postMedia.imgPath, thumbPath: postMedia.thumbPath })
      .from(postMedia)
      .where(inArray(postMedia.postId, ids));
    // Decision 0272: a deleted post's ad ends and its unused whole days are refunded.
    if (target.parentId === null) await endAdsOfPost(ctx, tx, postId, "Refund: post deleted");
    // Decision 0604: its open offers close with a message before they go with it.
    if (target.parentId === null) await closeOffersOfListing(ctx, tx, postId, { listingDeleted: true });
    await tx.delete(postLikes).where(inArray(postLikes.postId, ids));
    await tx.delete(postMedia).where(inArray(postMedia.postId, ids));
    await tx.delete(posts).where(inArray(posts.id, ids));

    if (target.parentId === null) {
      // spec 2 §4: top-level only. 'new user' posts never counted (server/posts/new-user-post.ts).
      if (target.type === "post") {
        await tx
          .update(user)
          .set({ totalPosts: sql`greatest(${user.totalPosts} - 1, 0)` })
          .where(eq(user.id, target.authorId));
      }
    } else {
      await tx
        .update(posts)
        .set({ commentCount: sql`greatest(${posts.commentCount} - 1, 0)` })
        .where(eq(posts.id, target.parentId));
    }
    return { target, keys: files.flatMap(storedFileKeys), removed: ids.length };
  });

  await removePostFiles(ctx, result.keys);
  if (result.target.parentId === null) await processPendingRefunds(ctx);
  return {
    id: result.target.id,
    kind: result.target.parentId === null ? "post" : "comment",
    rootId: result.target.rootId,
    removed: result.removed,
  };
}
