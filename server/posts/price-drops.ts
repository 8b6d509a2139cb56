import { and, count, eq, gt } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { postLikes, priceDrops } from "../db/schema";
import { notifyAll } from "../notifications/notify";
import type { ListingKind, ListingStatus } from "./listing.shared";

/**
 * Decision 0640: a listing's lower price reaches the people who saved it, once per drop, inside
 * the edit's transaction (so the notices commit with the new price, or neither does).
 */

/** Decision 0640: drops of one listing that are told in a rolling day; later ones are only recorded. */
export const PRICE_DROP_NOTICES_PER_DAY = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface PriceBefore {
  priceCents: number | null;
  listingKind: ListingKind;
}

export interface PriceAfter extends PriceBefore {
  listingStatus: ListingStatus;
  /** Hidden or removed (decision 0542): nobody is told about a listing they cannot see. */
  moderationState: "hidden" | "removed" | null;
}

/**
 * Decision 0640: what counts as a drop — a selling listing that had a price above 0 and now has a
 * lower one (down to 0, 'Free', included). A price first stated, a price taken away, a change of
 * terms alone (Firm, Open to offers) and a Wanted post's budget are not drops.
 */
export function isPriceDrop(before: PriceBefore, after: PriceBefore): boolean {
  return (
    before.listingKind === "selling" &&
    after.listingKind === "selling" &&
    before.priceCents !== null &&
    before.priceCents > 0 &&
    after.priceCents !== null &&
    after.priceCents < before.priceCents
  );
}

/**
 * Records a drop and tells the listing's savers (post_likes) with a 'price drop' notice naming the
 * row: never the owner, nobody blocked either way (notifyAll), nobody when the listing is not
 * shown or not available. At most PRICE_DROP_NOTICES_PER_DAY drops of one listing are told per
 * rolling day (price_drops_post_idx), so lowering a price a dollar at a time cannot flood savers.
 * Returns the drop's id and how many were told.
 */
export async function recordPriceDrop(
  ctx: AppContext,
  tx: Queryable,
  listing: { id: string; campusId: string; authorId: string },
  fromCents: number,
  after: PriceAfter,
): Promise<{ priceDropId: string; told: number }> {
  const now = ctx.clock.now();
  const toCents = after.priceCents ?? 0;
  const [recent] = await tx
    .select({ drops: count() })
    .from(priceDrops)
    .where(
      and(eq(priceDrops.postId, listing.id), gt(priceDrops.createdAt, new Date(now.getTime() - DAY_MS))),
    );
  const [drop] = await tx
    .insert(priceDrops)
    .values({ campusId: listing.campusId, postId: listing.id, fromCents, toCents, createdAt: now })
    .returning({ id: priceDrops.id });
  if (!drop) throw new Error("price drop not recorded");
  const tellable =
    after.moderationState === null &&
    after.listingStatus === "available" &&
    (recent?.drops ?? 0) < PRICE_DROP_NOTICES_PER_DAY;
  if (!tellable) return { priceDropId: drop.id, told: 0 };
  const savers = await tx
    .select({ userId: postLikes.userId })
    .from(postLikes)
    .where(eq(postLikes.postId, listing.id))
    .orderBy(postLikes.userId);
  const told = await notifyAll(
    tx,
    ctx,
    savers.map((saver) => ({
      type: "price drop" as const,
      to: saver.userId,
      actorId: listing.authorId,
      campusId: listing.campusId,
      postId: listing.id,
      priceDropId: drop.id,
    })),
  );
  return { priceDropId: drop.id, told: told.length };
}
