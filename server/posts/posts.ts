import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { ParticipationRefused } from "../accounts/gates";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { campuses, postLikes, postMedia, posts, user } from "../db/schema";
import { assertCampusReadable, requireParticipant } from "./access";
import { ALL_CATEGORIES, isPostCategory } from "./categories";
import {
  after,
  type CursorKey,
  cursorTime,
  decodeCursor,
  newestFirst,
  type Page,
  pageSize,
  toPage,
  UUID_PATTERN,
} from "./cursor";
import { PostError } from "./errors";
import {
  checkPostFiles,
  removePostFiles,
  type StoredPostFile,
  storedFileKeys,
  storePostFiles,
} from "./media";
import { assertWithinPostingLimits, lockAuthor } from "./posting-limits";
import { hasTextInFirstBlock, parseRichText, type RichTextState } from "./rich-text";
import { PAGE_SIZES, POST_MESSAGES } from "./schemas";
import {
  type CommentView,
  mediaColumns,
  type PostDetail,
  type PostMediaView,
  summaryColumns,
  toMediaView,
  toSummary,
  type UserSummary,
} from "./views";

// ---------------------------------------------------------------------------
// Shared checks.

interface CheckedText {
  state: RichTextState | null;
  plainText: string;
}

/**
 * spec 2 §5: the Lexical state is well formed and at most 500 characters (line breaks count 2);
 * normalised, and within the node cap of decision 0115 (over it: 'Error: Too many characters!').
 */
function readText(input: unknown): CheckedText {
  const result = parseRichText(input);
  if (!result.ok) {
    throw new PostError(
      result.code === "unreadable" ? "invalid-input" : "too-many-characters",
      result.message,
    );
  }
  return { state: result.state, plainText: result.plainText };
}

/** spec 2 §3: one of the 32 values, or none ('All categories' in the picker means none). */
function readCategory(input: string | null | undefined): string | null {
  if (!input || input === ALL_CATEGORIES.value) return null;
  if (!isPostCategory(input)) throw new PostError("invalid-input", POST_MESSAGES.unknownCategory);
  return input;
}

function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * One's own campus only (decision 0082): posting, commenting and saving are refused
 * on another campus's content, whatever host the request came through.
 */
function assertOwnCampus(member: Viewer, campusId: string): void {
  if (member.campusId !== campusId) throw new PostError("other-campus", POST_MESSAGES.otherCampus);
}

/** PostgreSQL's foreign-key violation: the row a write refers to was deleted meanwhile. */
function isForeignKeyViolation(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === "23503") return true;
  }
  return false;
}

function mediaRows(postId: string, campusId: string, stored: readonly StoredPostFile[]) {
  return stored.map((file) => ({
    postId,
    campusId,
    kind: file.kind,
    imgPath: file.imgPath,
    thumbPath: file.thumbPath,
    imgName: file.imgName,
    imgOrder: file.imgOrder,
    imgWidth: file.imgWidth,
    imgHeight: file.imgHeight,
  }));
}

// ---------------------------------------------------------------------------
// Writing.

export interface CreatePostInput {
  /** The campus of the request's host; it must be the author's own campus. */
  campusId: string;
  /** The Lexical editor state (JSON text or object); empty or null for a files-only post. */
  text?: unknown;
  /** A category value of categories.ts, or null / '' / 'all' for none. */
  category?: string | null;
  /** The uploaded photos and videos, in the order shown (web `File`s from the form data). */
  files?: readonly Blob[];
}

/**
 * spec 2 §4, §5 'Composer': creates a top-level post. Refuses with
 * ParticipationRefused (signed out → sign-in modal 'post'; e-mail not verified;
 * school not verified → school prompt; profile not set up → 'Your profile is not
 * complete') or PostError (500 rule, empty, category, files). Files are written
 * first and removed again if the transaction fails; the post, its gallery rows and
 * the author's totalPosts + 1 commit together.
 */
export async function createPost(
  ctx: AppContext,
  viewer: Viewer | null,
  input: CreatePostInput,
): Promise<{ id: string }> {
  const author = requireParticipant(viewer, "post");
  assertOwnCampus(author, input.campusId);
  // Decision 0116: before the text is read or any file looked at.
  await assertWithinPostingLimits(ctx, ctx.db, author.id);
  const text = readText(input.text);
  const category = readCategory(input.category);
  const files = await checkPostFiles(input.files ?? []);
  if (!hasTextInFirstBlock(text.state) && files.length === 0)
    throw new PostError("empty", POST_MESSAGES.empty);

  const id = randomUUID();
  const stored = await storePostFiles(ctx, id, files);
  const now = ctx.clock.now();
  try {
    await ctx.db.transaction(async (tx) => {
      await lockAuthor(tx, author.id);
      await assertWithinPostingLimits(ctx, tx, author.id);
      await tx.insert(posts).values({
        id,
        campusId: author.campusId,
        type: "post",
        authorId: author.id,
        text: text.state,
        textPlain: text.plainText,
        category,
        imgCount: stored.length,
        createdAt: now,
        lastModified: now,
      });
      if (stored.length > 0) await tx.insert(postMedia).values(mediaRows(id, author.campusId, stored));
      // spec 2 §4: top-level creation increments the author's totalPosts.
      await tx
        .update(user)
        .set({ totalPosts: sql`${user.totalPosts} + 1` })
        .where(eq(user.id, author.id));
    });
  } catch (error) {
    await removePostFiles(ctx, stored.flatMap(storedFileKeys));
    throw error;
  }
  return { id };
}

export interface CreateCommentInput {
  /** What is replied to: a top-level post or a comment (spec 2 §3 post_commented_on). */
  postId: string;
  text?: unknown;
  files?: readonly Blob[];
}

/**
 * The posts from `parentId` up to its top-level post, locked in id order — the order
 * deletePost locks a subtree in — so two writers in one thread take shared rows in turn.
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
 * and 500 rule as a post (server/accounts/gates.ts decides which gates a comment
 * needs). In one transaction: the reply (parent_id, root_id), the parent's
 * comment_count + 1, and last_modified of the parent and every ancestor bumped to
 * now (spec 2 §4), which moves the thread's post to the top of the feed.
 */
export async function createComment(
  ctx: AppContext,
  viewer: Viewer | null,
  input: CreateCommentInput,
): Promise<{ id: string; rootId: string }> {
  const author = requireParticipant(viewer, "comment");
  if (!isUuid(input.postId)) throw new PostError("not-found", POST_MESSAGES.postGone);
  // Decision 0116: before the text is read or any file looked at.
  await assertWithinPostingLimits(ctx, ctx.db, author.id);
  const text = readText(input.text);
  const files = await checkPostFiles(input.files ?? []);
  if (!hasTextInFirstBlock(text.state) && files.length === 0)
    throw new PostError("empty", POST_MESSAGES.empty);

  const [parent] = await ctx.db
    .select({ id: posts.id, campusId: posts.campusId, rootId: posts.rootId, type: posts.type })
    .from(posts)
    .where(eq(posts.id, input.postId))
    .limit(1);
  if (!parent) throw new PostError("not-found", POST_MESSAGES.postGone);
  assertOwnCampus(author, parent.campusId);
  // A 'new user' post is a banner, not something to discuss.
  if (parent.type !== "post") throw new PostError("invalid-input", POST_MESSAGES.cannotReply);

  const id = randomUUID();
  const rootId = parent.rootId ?? parent.id;
  const stored = await storePostFiles(ctx, id, files);
  const now = ctx.clock.now();
  try {
    await ctx.db.transaction(async (tx) => {
      const chain = await lockChain(tx, parent.id);
      if (!chain.some((row) => row.id === parent.id))
        throw new PostError("not-found", POST_MESSAGES.postGone);
      // After the thread's rows, as deletePost takes posts before the author's row.
      await lockAuthor(tx, author.id);
      await assertWithinPostingLimits(ctx, tx, author.id);
      await tx.insert(posts).values({
        id,
        campusId: parent.campusId,
        type: "post",
        authorId: author.id,
        text: text.state,
        textPlain: text.plainText,
        parentId: parent.id,
        rootId,
        imgCount: stored.length,
        createdAt: now,
        lastModified: now,
      });
      if (stored.length > 0) await tx.insert(postMedia).values(mediaRows(id, parent.campusId, stored));
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
    });
  } catch (error) {
    await removePostFiles(ctx, stored.flatMap(storedFileKeys));
    if (isForeignKeyViolation(error)) throw new PostError("not-found", POST_MESSAGES.postGone);
    throw error;
  }
  return { id, rootId };
}

export interface DeletedPost {
  id: string;
  /** 'post' → 'Your post was deleted'; 'comment' → 'Comment Removed' (spec 2 §8). */
  kind: "post" | "comment";
  /** For a comment: its thread's top-level post, the page to stay on. */
  rootId: string | null;
  /** How many rows went: the post and every nested comment. */
  removed: number;
}

/**
 * spec 2 §4 'Post lifecycle': the owner deletes a post, or the author a comment
 * (nobody else, whatever id they send). One transaction removes the post, every
 * nested comment (recursively), their gallery rows and saves, and decrements
 * totalPosts for a top-level post or the parent's comment_count for a comment.
 * The stored files go after the commit; a failure there is logged ('Couldn't
 * delete post images') and does not undo the delete.
 */
export async function deletePost(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<DeletedPost> {
  if (!viewer || viewer.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "post" });
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
    if (!target) throw new PostError("not-found", POST_MESSAGES.postGone);
    // spec 2 §6: only the post owner, only the comment author.
    if (target.authorId !== viewer.id) throw new PostError("forbidden", POST_MESSAGES.notYours);

    // The post and every reply below it, locked in id order (as createComment locks its chain).
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
  return {
    id: result.target.id,
    kind: result.target.parentId === null ? "post" : "comment",
    rootId: result.target.rootId,
    removed: result.removed,
  };
}

/**
 * spec 2 §4 'Save/like': saves or unsaves a top-level post for the viewer, keeping
 * like_count in step. Signed out → ParticipationRefused with reason 'like'.
 * Concurrent toggles of one post take turns on its row lock. Another campus's post
 * cannot be saved, as it cannot be commented on (issue 9 §4); a save made there
 * before that rule can still be removed.
 */
export async function toggleSave(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<{ saved: boolean; likeCount: number }> {
  const saver = requireParticipant(viewer, "like");
  if (!isUuid(postId)) throw new PostError("not-found", POST_MESSAGES.postGone);
  return ctx.db.transaction(async (tx) => {
    const [post] = await tx
      .select({ id: posts.id, campusId: posts.campusId, type: posts.type, parentId: posts.parentId })
      .from(posts)
      .where(eq(posts.id, postId))
      .for("update")
      .limit(1);
    if (!post) throw new PostError("not-found", POST_MESSAGES.postGone);
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
      await tx
        .insert(postLikes)
        .values({ postId, userId: saver.id, campusId: post.campusId, createdAt: ctx.clock.now() });
    }
    const [counted] = await tx
      .update(posts)
      .set({ likeCount: saved ? sql`${posts.likeCount} + 1` : sql`greatest(${posts.likeCount} - 1, 0)` })
      .where(eq(posts.id, postId))
      .returning({ likeCount: posts.likeCount });
    return { saved, likeCount: counted?.likeCount ?? 0 };
  });
}

// ---------------------------------------------------------------------------
// Reading.

/** The read queries of this file, built but not run, for EXPLAIN (indexes.test.ts). */
export const postQueries = {
  /** A whole thread in one range read of posts_thread_idx, oldest first. */
  thread(db: Queryable, viewer: Viewer | null, rootId: string) {
    return db
      .select(summaryColumns(viewer))
      .from(posts)
      .innerJoin(user, eq(user.id, posts.authorId))
      .where(eq(posts.rootId, rootId))
      .orderBy(asc(posts.createdAt), asc(posts.id));
  },
  /** Who saved a post, newest first, from post_likes_post_idx. */
  likers(db: Queryable, p: { postId: string; key: CursorKey | null; size: number }) {
    return db
      .select({
        cursorTime: cursorTime(postLikes.createdAt),
        id: user.id,
        username: user.username,
        firstName: user.firstName,
        lastName: user.lastName,
        img: user.img,
        verified: user.schoolVerified,
      })
      .from(postLikes)
      .innerJoin(user, eq(user.id, postLikes.userId))
      .where(
        and(
          eq(postLikes.postId, p.postId),
          p.key ? after(postLikes.createdAt, postLikes.userId, p.key, "text") : undefined,
        ),
      )
      .orderBy(...newestFirst(postLikes.createdAt, postLikes.userId))
      .limit(p.size + 1);
  },
};

export interface PostRef {
  postId: string;
  /** The campus of the request's host: a post of another campus is not found here. */
  campusId: string;
}

async function mediaOf(ctx: AppContext, postIds: readonly string[]): Promise<Map<string, PostMediaView[]>> {
  const byPost = new Map<string, PostMediaView[]>();
  if (postIds.length === 0) return byPost;
  const rows = await ctx.db
    .select(mediaColumns)
    .from(postMedia)
    .where(inArray(postMedia.postId, [...postIds]))
    .orderBy(asc(postMedia.postId), asc(postMedia.imgOrder));
  for (const row of rows) {
    const list = byPost.get(row.postId) ?? [];
    list.push(toMediaView(ctx, row));
    byPost.set(row.postId, list);
  }
  return byPost;
}

/**
 * spec 2 §2 'Post detail': a post (or comment) with its author, every photo and
 * video, counts, and whether the viewer saved and owns it. Null when it does not
 * exist on this campus ('Sorry, that post has been deleted.'). A visitor asking for
 * a private campus's post gets PostError 'private-campus'.
 */
export async function getPost(
  ctx: AppContext,
  viewer: Viewer | null,
  ref: PostRef,
): Promise<PostDetail | null> {
  if (!isUuid(ref.postId)) return null;
  const [row] = await ctx.db
    .select({
      ...summaryColumns(viewer),
      plainText: posts.textPlain,
      privacy: campuses.privacy,
      generic: campuses.generic,
    })
    .from(posts)
    .innerJoin(user, eq(user.id, posts.authorId))
    .innerJoin(campuses, eq(campuses.id, posts.campusId))
    .where(and(eq(posts.id, ref.postId), eq(posts.campusId, ref.campusId)))
    .limit(1);
  if (!row) return null;
  assertCampusReadable(viewer, row);
  const media = row.imgCount > 0 ? ((await mediaOf(ctx, [row.id])).get(row.id) ?? []) : [];
  const { firstMedia: _first, ...summary } = toSummary(ctx, viewer, row, { wholeText: true });
  return { ...summary, media, plainText: row.plainText };
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
  const [post] = await ctx.db
    .select({ id: posts.id, rootId: posts.rootId, privacy: campuses.privacy, generic: campuses.generic })
    .from(posts)
    .innerJoin(campuses, eq(campuses.id, posts.campusId))
    .where(and(eq(posts.id, ref.postId), eq(posts.campusId, ref.campusId)))
    .limit(1);
  if (!post) return null;
  assertCampusReadable(viewer, post);

  const rows = await postQueries.thread(ctx.db, viewer, post.rootId ?? post.id);
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

export interface ListLikersInput extends PostRef {
  cursor?: string | null;
  limit?: number;
}

/**
 * spec 2 §2 '/post/{id}/likes': the people who saved a post, most recent first,
 * keyset-paged (post_likes_post_idx). Null when the post is not on this campus.
 */
export async function listPostLikers(
  ctx: AppContext,
  viewer: Viewer | null,
  input: ListLikersInput,
): Promise<Page<UserSummary> | null> {
  if (!isUuid(input.postId)) return null;
  const [post] = await ctx.db
    .select({ id: posts.id, privacy: campuses.privacy, generic: campuses.generic })
    .from(posts)
    .innerJoin(campuses, eq(campuses.id, posts.campusId))
    .where(and(eq(posts.id, input.postId), eq(posts.campusId, input.campusId)))
    .limit(1);
  if (!post) return null;
  assertCampusReadable(viewer, post);
  const size = pageSize(input.limit, PAGE_SIZES.likers);
  const key = input.cursor ? decodeCursor(input.cursor, "text") : null;
  const rows = await postQueries.likers(ctx.db, { postId: post.id, key, size });
  return toPage(
    rows,
    size,
    (row) => row.id,
    ({ cursorTime: _time, ...liker }) => liker,
  );
}
