import { and, eq, inArray, ne } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { isUuid } from "../db/ids";
import { postMedia, posts, user } from "../db/schema";
import { shownTo, visibilityNow } from "../moderation/visibility";
import { type ListingKind, type ListingStatus, priceLine } from "../posts/listing.shared";
import { PREVIEW_CHARACTERS } from "../posts/rich-text.shared";
import { requireReader } from "./access";

/**
 * A shared post as the message's card shows it; `deleted` shows '* Post deleted **'. The price
 * and the listing's kind and status are read when the thread loads, not kept in the message, so
 * a listing sold since it was shared shows Sold (decision 0456).
 */
export type SharedPostCard =
  | { deleted: true; id: string }
  | {
      deleted: false;
      id: string;
      text: string;
      author: string;
      thumbUrl: string | null;
      /** The card's price line ('$40 · Firm', 'Free'); null without a price (decision 0170). */
      price: string | null;
      kind: ListingKind;
      status: ListingStatus;
    };

/**
 * The cards of shared posts that still exist on the campus; a missing one is '* Post deleted **'
 * (spec 2 §4), and so is one `viewerId` may not see (decision 0546: hidden, removed, a suspended
 * author's), as a deleted one.
 */
export async function sharedPostCards(
  ctx: AppContext,
  campusId: string,
  postIds: readonly string[],
  viewerId: string,
): Promise<Map<string, SharedPostCard>> {
  const cards = new Map<string, SharedPostCard>();
  const ids = [...new Set(postIds)];
  if (ids.length === 0) return cards;
  const rows = await ctx.db
    .select({
      id: posts.id,
      text: posts.textPlain,
      firstName: user.firstName,
      lastName: user.lastName,
      thumb: postMedia.thumbPath,
      priceCents: posts.priceCents,
      priceTerms: posts.priceTerms,
      kind: posts.listingKind,
      status: posts.listingStatus,
    })
    .from(posts)
    .innerJoin(user, eq(user.id, posts.authorId))
    .leftJoin(postMedia, and(eq(postMedia.postId, posts.id), eq(postMedia.imgOrder, 1)))
    .where(
      and(
        inArray(posts.id, ids),
        eq(posts.campusId, campusId),
        ne(posts.type, "new user"),
        shownTo(viewerId, visibilityNow(ctx.clock.now())),
      ),
    );
  for (const row of rows) {
    cards.set(row.id, {
      deleted: false,
      id: row.id,
      text: [...row.text].slice(0, PREVIEW_CHARACTERS).join(""),
      author: `${row.firstName} ${row.lastName}`,
      thumbUrl: row.thumb ? ctx.storage.url(row.thumb) : null,
      price: priceLine(row),
      kind: row.kind,
      status: row.status,
    });
  }
  return cards;
}

/** The post a Send Message button shares, as the new-message page previews it (null when gone). */
export async function sharedPostPreview(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<SharedPostCard | null> {
  const member = requireReader(viewer);
  if (!isUuid(postId)) return null;
  return (await sharedPostCards(ctx, member.campusId, [postId], member.id)).get(postId) ?? null;
}
