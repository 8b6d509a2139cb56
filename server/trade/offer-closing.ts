import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { deals, offers, reputations } from "../db/schema";
import { notify } from "../notifications/notify";
import { SYSTEM_LINES } from "./offer-rules.shared";
import { appendTradeMessage } from "./trade-chat";

/**
 * What ends a listing's open offers and its deal, in the caller's transaction, under the
 * listing's row lock (lockPost) that every writer of the trade takes first (decision 0603).
 */

export interface ListingRef {
  id: string;
  campusId: string;
  authorId: string;
}

/**
 * Decision 0602: every pending offer of the listing (but `exceptOfferId`) becomes 'closed' ('No
 * longer available'), with a system line in its chat and a notice to its buyer. `why` picks the
 * words: another buyer's deal ('offer-closed') or the listing changed, was sold, hidden or
 * deleted ('listing-closed'). When the listing is about to be deleted its offers go with it, so
 * the notice names the chat only (a notice naming the offer would go too).
 */
export async function closePendingOffers(
  ctx: AppContext,
  tx: Tx,
  listing: ListingRef,
  options: { why: "offer-closed" | "listing-closed"; exceptOfferId?: string; listingDeleted?: boolean },
): Promise<number> {
  const now = ctx.clock.now();
  const closed = await tx
    .update(offers)
    .set({ state: "closed", version: sql`${offers.version} + 1`, decidedAt: now })
    .where(
      and(
        eq(offers.postId, listing.id),
        eq(offers.state, "pending"),
        options.exceptOfferId ? sql`${offers.id} <> ${options.exceptOfferId}::uuid` : undefined,
      ),
    )
    .returning({ id: offers.id, chatId: offers.chatId, buyerId: offers.buyerId });
  for (const offer of closed.sort((a, b) => a.chatId.localeCompare(b.chatId))) {
    const chat = { id: offer.chatId, campusId: listing.campusId };
    await appendTradeMessage(ctx, tx, chat, listing.authorId, offer.buyerId, {
      text: SYSTEM_LINES[options.why],
      systemEvent: options.why,
    });
    await notify(tx, ctx, {
      type: "offer",
      event: options.why === "offer-closed" ? "closed" : "voided",
      to: offer.buyerId,
      actorId: listing.authorId,
      campusId: listing.campusId,
      postId: options.listingDeleted ? null : listing.id,
      chatId: offer.chatId,
      offerId: options.listingDeleted ? null : offer.id,
    });
  }
  return closed.length;
}

/** Decision 0600: a completed trade counts on both members' summary rows. */
export async function countCompletedTrade(tx: Tx, userIds: readonly string[], now: Date): Promise<void> {
  for (const userId of [...userIds].sort()) {
    await tx
      .insert(reputations)
      .values({ userId, tradesCompleted: 1, updatedAt: now })
      .onConflictDoUpdate({
        target: reputations.userId,
        set: { tradesCompleted: sql`${reputations.tradesCompleted} + 1`, updatedAt: now },
      });
  }
}

export interface ActiveDeal {
  id: string;
  chatId: string | null;
  sellerId: string;
  buyerId: string;
}

export async function activeDealOf(tx: Tx, postId: string): Promise<ActiveDeal | null> {
  const [deal] = await tx
    .select({ id: deals.id, chatId: deals.chatId, sellerId: deals.sellerId, buyerId: deals.buyerId })
    .from(deals)
    .where(and(eq(deals.postId, postId), eq(deals.state, "active")))
    .limit(1);
  return deal ?? null;
}

/**
 * Decision 0604: the deal is done (the seller marked it sold or the buyer said 'I got it'): it
 * is completed, both members' trades count, its chat says so and the other side is told. The
 * listing's status is the caller's (setListingStatus, or the deal's own writer).
 */
export async function completeDealRow(
  ctx: AppContext,
  tx: Tx,
  listing: ListingRef,
  deal: ActiveDeal,
  actorId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await tx.update(deals).set({ state: "completed", completedAt: now }).where(eq(deals.id, deal.id));
  await countCompletedTrade(tx, [deal.sellerId, deal.buyerId], now);
  const other = actorId === deal.sellerId ? deal.buyerId : deal.sellerId;
  if (deal.chatId) {
    await appendTradeMessage(ctx, tx, { id: deal.chatId, campusId: listing.campusId }, actorId, other, {
      text: SYSTEM_LINES["deal-completed"],
      systemEvent: "deal-completed",
    });
  }
  await notify(tx, ctx, {
    type: "deal",
    event: "completed",
    to: other,
    actorId,
    campusId: listing.campusId,
    postId: listing.id,
    chatId: deal.chatId,
    dealId: deal.id,
  });
}
