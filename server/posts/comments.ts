import { and, asc, eq, inArray, type Placeholder, sql } from "drizzle-orm";
import { ParticipationRefused } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import { blockedWithAny, noBlockBetween } from "../chats/blocks";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { isForeignKeyViolation } from "../db/errors";
import { isUuid } from "../db/ids";
import { preparedStatement } from "../db/prepared";
import { campuses, posts, user } from "../db/schema";
import { postsShownTo, shownTo, visibilityNow } from "../moderation/visibility";
import { notifyNewComment } from "../notifications/notify";
import { checkCommentSafety } from "../safety/listing";
import { assertCampusReadable, requireParticipant } from "./access";
import { PostError } from "./errors";
import { assertOwnCampus, readText } from "./input";
import { writeAuthoredPost } from "./insertion";
import { checkPostFiles } from "./media";
import { assertWithinPostingLimits } from "./posting-limits";
import type { PostRef } from "./posts";
import { type DeletedPost, removeWithReplies } from "./removal";
import { hasTextInFirstBlock } from "./rich-text.shared";
import { POST_MESSAGES } from "./schemas";
import { type CommentView, mediaOf, type SummaryRow, summaryColumns, toSummary } from "./views";

/**
 * Comments and replies (decision 0130: a comment is a row of posts with a parent): creating,
 * deleting and reading a thread (decision 0150).
 */

/** The read query of this file, built but not run, for EXPLAIN (indexes.test.ts, bench). */
export const commentQueries = {
  /**
   * A whole thread in one range read of posts_thread_idx, oldest first. Decision 0546: without
   * what the viewer may not see (a hidden or removed comment, a suspended author's), and so
   * without the replies below it, as a blocked person's comment is left out.
   */
  thread(
    db: Queryable,
    viewer: { id: string | Placeholder } | null,
    rootId: string | Placeholder,
    now: string | Placeholder,
  ) {
    return db
      .select(summaryColumns(viewer))
      .from(posts)
      .innerJoin(user, eq(user.id, posts.authorId))
      .where(
        and(
          eq(posts.rootId, rootId),
          // Decision 0462: a member sees no comment of someone blocked either way (nor, so, its
          // replies); visitors' threads are unchanged.
          viewer ? noBlockBetween(viewer.id, posts.authorId) : undefined,
          shownTo(viewer?.id ?? null, now),
        ),
      )
      .orderBy(asc(posts.createdAt), asc(posts.id));
  },
};

export interface CreateCommentInput {
  /** What is replied to: a top-level post or a comment (spec 2 §3 post_commented_on). */
  postId: string;
  text?: unknown;
  files?: readonly Blob[];
}

/**
 * The posts from `parentId` up to its top-level post, locked in id order — the order
 * removeWithReplies locks a subtree in — so two writers in one thread take shared rows in turn.
 */
function lockChain(tx: Tx, parentId: string) {
  return tx
    .select({ id: posts.id })
    .from(posts)
    .where(
      sql`${posts.id} in (
        with recursive chain(id, parent_id) as (
          select id, parent_id from posts where id = ${parentId}::uuid
          union all
          select p.id, p.parent_id from posts p join chain c on p.id = c.parent_id
        )
        select id from chain
      )`,
    )
    .orderBy(asc(posts.id))
    .for("update");
}

/**
 * spec 2 §4 'Comments and replies': a reply to a post or comment. The same gates
 * and 500 rule as a post (server/accounts/gates.shared.ts decides which gates a comment
 * needs). In one transaction: the reply (parent_id, root_id), the parent's
 * comment_count + 1, and last_modified of the parent and every ancestor bumped to
 * now (spec 2 §4), which moves the thread's post to the top of the feed.
 */
export async function createComment(
  ctx: AppContext,
  viewer: Viewer | null,
  input: CreateCommentInput,
): Promise<{ id: string; rootId: string }> {
  const author = requireParticipant(viewer, "comment", ctx.clock.now());
  if (!isUuid(input.postId)) throw new PostError("not-found", POST_MESSAGES.postGone);
  // Decision 0116: before the text is read or any file looked at.
  await assertWithinPostingLimits(ctx, ctx.db, author.id);
  const text = readText(input.text);
  const files = await checkPostFiles(input.files ?? []);
  if (!hasTextInFirstBlock(text.state) && files.length === 0)
    throw new PostError("empty", POST_MESSAGES.empty);

  const [parent] = await ctx.db
    .select({
      id: posts.id,
      campusId: posts.campusId,
      rootId: posts.rootId,
      type: posts.type,
      authorId: posts.authorId,
    })
    .from(posts)
    .where(eq(posts.id, input.postId))
    .limit(1);
  if (!parent) throw new PostError("not-found", POST_MESSAGES.postGone);
  assertOwnCampus(author, parent.campusId);
  // Decision 0546: a hidden, removed or suspended author's post (or thread) is gone for this student.
  if (!(await postsShownTo(ctx.db, [parent.id, parent.rootId ?? parent.id], author.id, ctx.clock.now()))) {
    throw new PostError("not-found", POST_MESSAGES.postGone);
  }
  // A 'new user' post is a banner, not something to discuss.
  if (parent.type !== "post") throw new PostError("invalid-input", POST_MESSAGES.cannotReply);

  const rootId = parent.rootId ?? parent.id;
  // Decision 0462: no comment on the post, nor reply to the comment, of someone blocked either way.
  const [root] =
    rootId === parent.id
      ? [parent]
      : await ctx.db.select({ authorId: posts.authorId }).from(posts).where(eq(posts.id, rootId)).limit(1);
  if (await blockedWithAny(ctx.db, author.id, [parent.authorId, root?.authorId ?? parent.authorId]))
    throw new PostError("forbidden", POST_MESSAGES.cannotCommentBlocked);
  try {
    const { id } = await writeAuthoredPost(
      ctx,
      {
        campusId: parent.campusId,
        authorId: author.id,
        text,
        files,
        columns: { parentId: parent.id, rootId },
      },
      async (tx, { id, now }, insert) => {
        const chain = await lockChain(tx, parent.id);
        if (!chain.some((row) => row.id === parent.id))
          throw new PostError("not-found", POST_MESSAGES.postGone);
        // docs/product/safety.md 'Comments': the scam-stopping block rules, before anything is written.
        await checkCommentSafety(ctx, tx, author.id, text.plainText);
        // After the thread's rows, as removeWithReplies takes posts before the author's row.
        await insert();
        await tx
          .update(posts)
          .set({ commentCount: sql`${posts.commentCount} + 1` })
          .where(eq(posts.id, parent.id));
        // spec 2 §4: 'Creating a reply updates lastModified of the parent and all ancestors.'
        await tx
          .update(posts)
          .set({ lastModified: now })
          .where(
            inArray(
              posts.id,
              chain.map((row) => row.id),
            ),
          );
        // Decision 0250: the post's owner, the comment's author, the thread above (spec 2 §3 types).
        await notifyNewComment(tx, ctx, {
          commentId: id,
          authorId: author.id,
          campusId: parent.campusId,
          parentId: parent.id,
          rootId,
          threadIds: chain.map((row) => row.id),
        });
      },
    );
    return { id, rootId };
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new PostError("not-found", POST_MESSAGES.postGone);
    throw error;
  }
}

/**
 * spec 2 §4 'Post lifecycle': the author deletes a comment (nobody else, not even the owner
 * of the post it is under) with every reply below it (server/posts/removal.ts); the parent's
 * comment_count − 1. A top-level post's id is not found here: posts are deleted by deletePost.
 */
export async function deleteComment(
  ctx: AppContext,
  viewer: Viewer | null,
  commentId: string,
): Promise<DeletedPost> {
  if (!viewer || viewer.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "post" });
  // spec 2 §6: only the comment's author.
  return removeWithReplies(
    ctx,
    viewer,
    commentId,
    "comment",
    (comment, author) => comment.authorId === author.id,
  );
}

/**
 * spec 2 §7 'Replies … ordered by createdAt ascending, recursively': the replies
 * below a post (or below a comment), each with its author, media and own replies.
 * One range read of the thread (posts_thread_idx), assembled here. Null when the
 * post does not exist on this campus.
 */
export async function getThread(
  ctx: AppContext,
  viewer: Viewer | null,
  ref: PostRef,
): Promise<CommentView[] | null> {
  if (!isUuid(ref.postId)) return null;
  // Both read on every post page: prepared once per database (decision 0105).
  const lookup = preparedStatement(ctx.db, "thread_post", () =>
    ctx.db
      .select({ id: posts.id, rootId: posts.rootId, privacy: campuses.privacy, generic: campuses.generic })
      .from(posts)
      .innerJoin(campuses, eq(campuses.id, posts.campusId))
      .where(and(eq(posts.id, sql.placeholder("postId")), eq(posts.campusId, sql.placeholder("campusId"))))
      .limit(1),
  );
  const [post] = (await lookup.execute({ postId: ref.postId, campusId: ref.campusId })) as {
    id: string;
    rootId: string | null;
    privacy: "public" | "private";
    generic: boolean;
  }[];
  if (!post) return null;
  assertCampusReadable(viewer, post);

  const thread = preparedStatement(ctx.db, viewer ? "thread_member" : "thread_visitor", () =>
    commentQueries.thread(
      ctx.db,
      viewer ? { id: sql.placeholder("viewerId") } : null,
      sql.placeholder("rootId"),
      sql.placeholder("now"),
    ),
  );
  const rows = (await thread.execute({
    viewerId: viewer?.id,
    rootId: post.rootId ?? post.id,
    now: visibilityNow(ctx.clock.now()),
  })) as SummaryRow[];
  const media = await mediaOf(
    ctx,
    rows.filter((row) => row.imgCount > 0).map((row) => row.id),
  );

  const children = new Map<string, CommentView[]>();
  for (const row of rows) {
    const { firstMedia: _first, ...summary } = toSummary(ctx, viewer, row);
    const comment: CommentView = { ...summary, media: media.get(row.id) ?? [], replies: [] };
    const parentKey = row.parentId ?? "";
    const siblings = children.get(parentKey) ?? [];
    siblings.push(comment);
    children.set(parentKey, siblings);
  }
  // Rows come oldest first, so each list of siblings is already in order.
  const attach = (list: CommentView[]): CommentView[] => {
    for (const comment of list) comment.replies = attach(children.get(comment.id) ?? []);
    return list;
  };
  return attach(children.get(post.id) ?? []);
}
