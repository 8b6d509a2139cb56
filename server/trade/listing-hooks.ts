import { and, eq, or } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { deals, posts } from "../db/schema";
import { notify } from "../notifications/notify";
import type { ListingStatus } from "../posts/listing.shared";
import { activeDealOf, closePendingOffers, completeDealRow, type ListingRef } from "./offer-closing";
import { SYSTEM_LINES, TRADE_MESSAGES } from "./offer-rules.shared";
import { appendTradeMessage } from "./trade-chat";
import { TradeError } from "./trade-errors";

/**
 * The one call each existing writer of a listing makes so that its offers and deal stay true
 * (decision 0604). Nothing here imports those writers back (no import cycle).
 */

/**
 * Decision 0604: the owner's manual status (setListingStatus), in its transaction, before the
 * status is written. Sold with an active deal completes that deal; leaving Reserved for Available
 * while a deal is active is refused (the deal is cancelled with a reason, 'Cancel deal'). Any
 * move away from Available closes the listing's pending offers.
 */
export async function onListingStatusChange(
  ctx: AppContext,
  tx: Tx,
  listing: ListingRef,
  next: ListingStatus,
): Promise<void> {
  const deal = await activeDealOf(tx, listing.id);
  if (deal && next !== "sold") throw new TradeError("conflict", TRADE_MESSAGES.activeDeal);
  if (deal) await completeDealRow(ctx, tx, listing, deal, listing.authorId);
  if (next !== "available") await closePendingOffers(ctx, tx, listing, { why: "listing-closed" });
}

/**
 * Decision 0604: a listing deleted by its owner, hidden by reports or removed by moderators
 * closes its pending offers with a message; a deleted one's active deal goes with it (its row
 * cascades), a hidden one's deal stays for the two to finish or cancel.
 */
export async function closeOffersOfListing(
  ctx: AppContext,
  tx: Tx,
  postId: string,
  options: { listingDeleted?: boolean } = {},
): Promise<void> {
  const [listing] = await tx
    .select({ id: posts.id, campusId: posts.campusId, authorId: posts.authorId, parentId: posts.parentId })
    .from(posts)
    .where(eq(posts.id, postId))
    .limit(1);
  if (!listing || listing.parentId !== null) return;
  await closePendingOffers(ctx, tx, listing, {
    why: "listing-closed",
    listingDeleted: options.listingDeleted,
  });
  const deal = options.listingDeleted ? await activeDealOf(tx, listing.id) : null;
  if (deal?.chatId) {
    // The deal's row goes with the listing: its chat keeps a line saying so, and the buyer is told.
    await appendTradeMessage(
      ctx,
      tx,
      { id: deal.chatId, campusId: listing.campusId },
      deal.sellerId,
      deal.buyerId,
      {
        text: SYSTEM_LINES["deal-cancelled"],
        systemEvent: "deal-cancelled",
      },
    );
    await notify(tx, ctx, {
      type: "deal",
      event: "cancelled",
      to: deal.buyerId,
      actorId: deal.sellerId,
      campusId: listing.campusId,
      chatId: deal.chatId,
    });
  }
}

/**
 * Decision 0604: account deletion asks a student with a deal in progress to finish or cancel it
 * first (the other person is counting on it); nothing is deleted.
 */
export async function assertNoActiveDeal(db: Queryable, userId: string): Promise<void> {
  const [deal] = await db
    .select({ id: deals.id })
    .from(deals)
    .where(and(eq(deals.state, "active"), or(eq(deals.sellerId, userId), eq(deals.buyerId, userId))))
    .limit(1);
  if (deal) throw new TradeError("conflict", TRADE_MESSAGES.deletionBlocked);
}
