import { and, eq, type Placeholder, sql } from "drizzle-orm";
import { ParticipationRefused } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUuid } from "../db/ids";
import { preparedStatement } from "../db/prepared";
import { campuses, posts, user } from "../db/schema";
import { shownTo, visibilityNow } from "../moderation/visibility";
import { checkListingSafety } from "../safety/listing";
import { enqueueSavedSearchMatch, wakeSavedSearchMatcher } from "../search/saved-search-matching-queue";
import { assertWithinPricedListingLimit } from "../trust/gates";
import { assertCampusReadable, requireParticipant } from "./access";
import { PostError } from "./errors";
import { assertOwnCampus, type ListingInput, readCategory, readListing, readText } from "./input";
import { writeAuthoredPost } from "./insertion";
import { isWatching } from "./listing-status";
import { checkPostFiles } from "./media";
import { assertWithinPostingLimits, lockAuthor } from "./posting-limits";
import { type DeletedPost, removeWithReplies } from "./removal";
import { hasTextInFirstBlock } from "./rich-text.shared";
import { POST_MESSAGES } from "./schemas";
import { mediaOf, type PostDetail, summaryColumns, toSummary } from "./views";

/**
 * Top-level posts: creating, deleting and reading one (decision 0150). Comments
 * are server/posts/comments.ts, saves server/posts/saves.ts, the lists server/posts/feed.ts.
 */

export type { DeletedPost } from "./removal";

export interface CreatePostInput {
  /** The campus of the request's host; it must be the author's own campus. */
  campusId: string;
  /** The Lexical editor state (JSON text or object); empty or null for a files-only post. */
  text?: unknown;
  /** A category value of categories.ts, or null / '' / 'all' for none. */
  category?: string | null;
  /** The uploaded photos and videos, in the order shown (web `File`s from the form data). */
  files?: readonly Blob[];
  /** Price, condition and kind, all optional (decision 0170). */
  listing?: ListingInput | null;
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
  const author = requireParticipant(viewer, "post", ctx.clock.now());
  assertOwnCampus(author, input.campusId);
  // Decision 0116: before the text is read or any file looked at.
  await assertWithinPostingLimits(ctx, ctx.db, author.id);
  const text = readText(input.text);
  const category = readCategory(input.category);
  const listing = readListing(input.listing);
  const files = await checkPostFiles(input.files ?? []);
  if (!hasTextInFirstBlock(text.state) && files.length === 0)
    throw new PostError("empty", POST_MESSAGES.empty);

  const created = await writeAuthoredPost(
    ctx,
    { campusId: author.campusId, authorId: author.id, text, files, columns: { category, ...listing } },
    async (tx, row, insert) => {
      // Decision 0661: the trust level's number of priced listings for sale (insert locks the author first).
      if (listing.listingKind === "selling" && (listing.priceCents ?? 0) > 0) {
        await lockAuthor(tx, author.id);
        await assertWithinPricedListingLimit(tx, ctx, author.id);
      }
      // docs/product/safety.md: a listing's text is checked before anything is written.
      await checkListingSafety(ctx, tx, author.id, text.plainText);
      await insert();
      // spec 2 §4: top-level creation increments the author's totalPosts.
      await tx
        .update(user)
        .set({ totalPosts: sql`${user.totalPosts} + 1` })
        .where(eq(user.id, author.id));
      // Decision 0621: matched against the campus's saved searches once this commits.
      await enqueueSavedSearchMatch(tx, ctx, { id: row.id, campusId: author.campusId });
    },
  );
  wakeSavedSearchMatcher(ctx);
  return created;
}

/**
 * spec 2 §4 'Post lifecycle': the owner deletes a top-level post (nobody else, whatever id
 * they send) with every comment below it (server/posts/removal.ts); totalPosts − 1. A
 * comment's id is not found here: comments are deleted by deleteComment.
 */
export async function deletePost(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<DeletedPost> {
  if (!viewer || viewer.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "post" });
  // spec 2 §6: only the post owner.
  return removeWithReplies(ctx, viewer, postId, "post", (post, owner) => post.authorId === owner.id);
}

export interface PostRef {
  postId: string;
  /** The campus of the request's host: a post of another campus is not found here. */
  campusId: string;
}

/** A post page's post with its campus's privacy, by the placeholders `postId` and `campusId`. */
function postDetailQuery(db: Queryable, viewer: { id: Placeholder } | null) {
  // Decision 0546: a post the viewer may not see is not found, as a deleted one (the ordinary 404).
  return db
    .select({
      ...summaryColumns(viewer),
      plainText: posts.textPlain,
      editedAt: posts.editedAt,
      privacy: campuses.privacy,
      generic: campuses.generic,
    })
    .from(posts)
    .innerJoin(user, eq(user.id, posts.authorId))
    .innerJoin(campuses, eq(campuses.id, posts.campusId))
    .where(
      and(
        eq(posts.id, sql.placeholder("postId")),
        eq(posts.campusId, sql.placeholder("campusId")),
        shownTo(viewer?.id ?? null, sql.placeholder("now")),
      ),
    )
    .limit(1);
}
type PostDetailRow = Awaited<ReturnType<typeof postDetailQuery>>[number];

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
  // Read on every post page: prepared once per database, for visitors and for members (decision 0105).
  const statement = preparedStatement(ctx.db, viewer ? "post_detail_member" : "post_detail_visitor", () =>
    postDetailQuery(ctx.db, viewer ? { id: sql.placeholder("viewerId") } : null),
  );
  const [row] = (await statement.execute({
    viewerId: viewer?.id,
    postId: ref.postId,
    campusId: ref.campusId,
    now: visibilityNow(ctx.clock.now()),
  })) as PostDetailRow[];
  if (!row) return null;
  assertCampusReadable(viewer, row);
  const media = row.imgCount > 0 ? ((await mediaOf(ctx, [row.id])).get(row.id) ?? []) : [];
  const { firstMedia: _first, ...summary } = toSummary(ctx, viewer, row, { wholeText: true });
  // Decision 0172: only a reserved listing offers the watch, so only then is it looked up.
  const watchedByViewer =
    viewer !== null && row.listingStatus === "reserved" ? await isWatching(ctx, viewer.id, row.id) : false;
  return { ...summary, media, plainText: row.plainText, editedAt: row.editedAt, watchedByViewer };
}
