import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { isUuid } from "../db/ids";
import { postMedia, posts } from "../db/schema";
import { checkListingSafety } from "../safety/listing";
import { closeOffersOfListing } from "../trade/listing-hooks";
import { parseInput } from "../validation";
import { requireParticipant } from "./access";
import { invalidPostInput, PostError } from "./errors";
import { type ListingInput, readCategory, readListing, readText } from "./input";
import { checkPostFiles, mediaRows, removePostFiles, storedFileKeys, storePostFiles } from "./media";
import { isPriceDrop, recordPriceDrop } from "./price-drops";
import { hasTextInFirstBlock } from "./rich-text.shared";
import { EDIT_MESSAGES, MAX_POST_FILES, POST_MESSAGES } from "./schemas";

/**
 * Decision 0640: the owner edits a listing — text, category, price, Firm / Open to offers / Free,
 * condition, Selling / Wanted, photos added or removed — under the same rules as posting (the
 * readers createPost uses: one validation). docs/product/listing-essentials.md 'Editing a listing'.
 */

/** Decision 0640: one listing's edits at least this far apart (a bound like posting's, decision 0116). */
export const EDIT_INTERVAL_MS = 10_000;

export interface EditListingInput {
  /** The campus of the request's host: another campus's post is not found. */
  campusId: string;
  /** The whole new text (Lexical JSON), as the composer sends it; empty for none. */
  text?: unknown;
  category?: string | null;
  listing?: ListingInput | null;
  /** post_media ids of the photos and videos to take away. */
  removeMedia?: readonly string[];
  /** New photos and videos, shown after the kept ones. */
  files?: readonly Blob[];
}

export interface EditedListing {
  id: string;
  /** False when the form changed nothing (then nothing is written, 'Edited' does not move). */
  changed: boolean;
  editedAt: Date | null;
}

const removeMediaSchema = z
  .array(z.string().refine(isUuid, { error: POST_MESSAGES.somethingWentWrong }))
  .max(MAX_POST_FILES, { error: POST_MESSAGES.tooManyFiles });

/** The post as the edit reads it; 'not-found' for anyone but its owner (decision 0640: a 404). */
async function ownedListing(db: Tx | AppContext["db"], owner: Viewer, campusId: string, postId: string) {
  if (!isUuid(postId)) throw new PostError("not-found", POST_MESSAGES.postGone);
  const [post] = await db
    .select({
      id: posts.id,
      campusId: posts.campusId,
      authorId: posts.authorId,
      type: posts.type,
      parentId: posts.parentId,
      textPlain: posts.textPlain,
      text: posts.text,
      category: posts.category,
      priceCents: posts.priceCents,
      priceTerms: posts.priceTerms,
      condition: posts.condition,
      listingKind: posts.listingKind,
      listingStatus: posts.listingStatus,
      moderationState: posts.moderationState,
      editedAt: posts.editedAt,
    })
    .from(posts)
    .where(eq(posts.id, postId))
    .limit(1);
  // A comment, a 'new user' banner, someone else's post, another campus's: all not found.
  if (
    !post ||
    post.authorId !== owner.id ||
    post.campusId !== campusId ||
    post.type !== "post" ||
    post.parentId !== null ||
    post.moderationState === "removed"
  ) {
    throw new PostError("not-found", POST_MESSAGES.postGone);
  }
  return post;
}

/** The owner's edit form's starting values (the route's loader); not-found for anyone else. */
export async function getListingForEdit(
  ctx: AppContext,
  viewer: Viewer | null,
  ref: { campusId: string; postId: string },
) {
  if (!viewer || viewer.banned) throw new PostError("not-found", POST_MESSAGES.postGone);
  const post = await ownedListing(ctx.db, viewer, ref.campusId, ref.postId);
  const media = await ctx.db
    .select({
      id: postMedia.id,
      kind: postMedia.kind,
      thumbPath: postMedia.thumbPath,
      imgPath: postMedia.imgPath,
    })
    .from(postMedia)
    .where(eq(postMedia.postId, post.id))
    .orderBy(asc(postMedia.imgOrder));
  return {
    id: post.id,
    text: post.text,
    category: post.category,
    priceCents: post.priceCents,
    priceTerms: post.priceTerms,
    condition: post.condition,
    listingKind: post.listingKind,
    media: media.map((file) => ({
      id: file.id,
      kind: file.kind,
      url: ctx.storage.url(file.thumbPath ?? file.imgPath),
    })),
  };
}

/**
 * Decision 0640: edits the owner's listing. Refuses as posting does (signed out, suspended,
 * unverified: ParticipationRefused) and anyone else's, a comment, a removed post or a bad id as
 * not found (404). A hidden post (reports waiting for a moderator) is refused with 409 so the
 * reported words stay what moderators read. Every field is checked before anything is stored;
 * new files are written first and removed again if the transaction fails; removed files leave
 * storage after it commits. In one transaction under the post's row lock: the fields, the
 * photos, edited_at, the pending offers closed when the price, terms or kind change (decision
 * 0604), and a price drop told to the savers (server/posts/price-drops.ts). The search words
 * follow text_plain through PostgreSQL (decision 0190); a saved search is matched on publishing
 * only, never on an edit.
 */
export async function editListing(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
  input: EditListingInput,
): Promise<EditedListing> {
  const owner = requireParticipant(viewer, "post", ctx.clock.now());
  // Before any input is read or a file looked at: someone else's post costs nothing.
  await ownedListing(ctx.db, owner, input.campusId, postId);
  const text = readText(input.text);
  const category = readCategory(input.category);
  const listing = readListing(input.listing);
  const removeIds = [...new Set(parseInput(removeMediaSchema, input.removeMedia ?? [], invalidPostInput))];
  const files = await checkPostFiles(input.files ?? []);

  const keyTag = randomUUID().slice(0, 8);
  const stored = await storePostFiles(ctx, postId, files, { firstOrder: MAX_POST_FILES + 1, keyTag });
  let removedKeys: string[] = [];
  try {
    const result = await ctx.db.transaction(async (tx) => {
      await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for("update");
      const post = await ownedListing(tx, owner, input.campusId, postId);
      if (post.moderationState === "hidden") throw new PostError("listing-state", EDIT_MESSAGES.underReview);
      const now = ctx.clock.now();
      const current = await tx
        .select()
        .from(postMedia)
        .where(eq(postMedia.postId, post.id))
        .orderBy(asc(postMedia.imgOrder));
      if (removeIds.some((id) => !current.some((file) => file.id === id)))
        throw new PostError("invalid-input", POST_MESSAGES.somethingWentWrong);
      const kept = current.filter((file) => !removeIds.includes(file.id));
      if (kept.length + stored.length > MAX_POST_FILES)
        throw new PostError("too-many-files", POST_MESSAGES.tooManyFiles, "okay");
      if (!hasTextInFirstBlock(text.state) && kept.length + stored.length === 0)
        throw new PostError("empty", POST_MESSAGES.empty);

      const textChanged = text.plainText !== post.textPlain || canonical(text.state) !== canonical(post.text);
      const priceChanged =
        listing.priceCents !== post.priceCents ||
        listing.priceTerms !== post.priceTerms ||
        listing.listingKind !== post.listingKind;
      const changed =
        textChanged ||
        priceChanged ||
        category !== post.category ||
        listing.condition !== post.condition ||
        removeIds.length > 0 ||
        stored.length > 0;
      if (!changed) return { id: post.id, changed: false, editedAt: post.editedAt };
      // docs/product/safety.md: an edited text meets the same rules as a new listing's.
      if (textChanged) await checkListingSafety(ctx, tx, owner.id, text.plainText);
      // Decision 0640: edits of one listing at least EDIT_INTERVAL_MS apart.
      const since = post.editedAt ? now.getTime() - post.editedAt.getTime() : Number.POSITIVE_INFINITY;
      if (since < EDIT_INTERVAL_MS) {
        const wait = Math.ceil((EDIT_INTERVAL_MS - since) / 1000);
        throw new PostError("rate-limited", EDIT_MESSAGES.tooSoon, "danger", wait);
      }

      await tx
        .update(posts)
        .set({
          text: text.state,
          textPlain: text.plainText,
          category,
          priceCents: listing.priceCents,
          priceTerms: listing.priceTerms,
          condition: listing.condition,
          listingKind: listing.listingKind,
          imgCount: kept.length + stored.length,
          // Decision 0640: any change shows 'Edited'; the post keeps its place in the feed.
          editedAt: now,
        })
        .where(eq(posts.id, post.id));
      await rewriteGallery(tx, post, removeIds, kept.length, stored);
      removedKeys = current.filter((file) => removeIds.includes(file.id)).flatMap(storedFileKeys);

      const ref = { id: post.id, campusId: post.campusId, authorId: post.authorId };
      // Decision 0604: an offer was made against the old price and terms.
      if (priceChanged) await closeOffersOfListing(ctx, tx, post.id);
      if (isPriceDrop(post, listing) && post.priceCents !== null) {
        await recordPriceDrop(ctx, tx, ref, post.priceCents, {
          ...listing,
          listingStatus: post.listingStatus,
          moderationState: post.moderationState,
        });
      }
      return { id: post.id, changed: true, editedAt: now };
    });
    await removePostFiles(ctx, removedKeys);
    return result;
  } catch (error) {
    await removePostFiles(ctx, stored.flatMap(storedFileKeys));
    throw error;
  }
}

/** JSON with its keys sorted: jsonb gives an object's keys back in its own order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    field && typeof field === "object" && !Array.isArray(field)
      ? Object.fromEntries(Object.entries(field).sort(([a], [b]) => a.localeCompare(b)))
      : field,
  );
}

/**
 * The gallery after an edit: the removed rows go, the kept ones are numbered 1… in their order and
 * the new ones follow (post_media_order_unique is checked per row, so the kept rows pass through
 * numbers no row holds: above MAX_POST_FILES, where the new files were stored).
 */
async function rewriteGallery(
  tx: Tx,
  post: { id: string; campusId: string },
  removeIds: readonly string[],
  keptCount: number,
  stored: Awaited<ReturnType<typeof storePostFiles>>,
): Promise<void> {
  if (removeIds.length > 0)
    await tx
      .delete(postMedia)
      .where(and(eq(postMedia.postId, post.id), inArray(postMedia.id, [...removeIds])));
  if (removeIds.length > 0 && keptCount > 0) {
    await tx.execute(sql`
      update post_media m set img_order = ${MAX_POST_FILES * 3} + n.position
      from (select id, row_number() over (order by img_order) as position from post_media where post_id = ${post.id}) n
      where m.id = n.id`);
    await tx.execute(
      sql`update post_media set img_order = img_order - ${MAX_POST_FILES * 3} where post_id = ${post.id}`,
    );
  }
  if (stored.length > 0) {
    const rows = mediaRows(post.id, post.campusId, stored).map((row, index) => ({
      ...row,
      imgOrder: keptCount + index + 1,
    }));
    await tx.insert(postMedia).values(rows);
  }
}
