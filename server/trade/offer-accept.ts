import { eq, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { requireSender } from "../chats/access";
import type { AppContext } from "../context";
import { deals, offers, posts } from "../db/schema";
import { notify } from "../notifications/notify";
import { closePendingOffers } from "./offer-closing";
import { SYSTEM_LINES, TRADE_MESSAGES } from "./offer-rules.shared";
import { assertOpen, lockOfferFor } from "./offers";
import { appendTradeMessage, setChatListing } from "./trade-chat";
import { isUniqueViolation, offerChanged, TradeError } from "./trade-errors";

/**
 * Decision 0603 'Accept': one transaction that locks the listing, checks the offer is still
 * pending, in time, and at exactly the amount and version the accepting browser showed (else
 * 'This offer changed' and nothing happens), accepts it, reserves the listing, makes the deal and
 * closes every other pending offer of the listing with a system line and a notice. Only the
 * offer's recipient accepts; its sender is refused; anyone else's id is not found.
 * `deals_one_active_unique` is the last guard: a deal that would be a second active one is
 * answered 'This offer changed' too.
 */
export async function acceptOffer(
  ctx: AppContext,
  viewer: Viewer | null,
  offerId: string,
  input: { amountCents: unknown; version: unknown },
): Promise<{ dealId: string; chatId: string }> {
  const member = requireSender(viewer, ctx.clock.now());
  if (typeof input.amountCents !== "number" || typeof input.version !== "number") {
    throw new TradeError("invalid-input", TRADE_MESSAGES.badInput);
  }
  try {
    return await ctx.db.transaction(async (tx) => {
      const { offer, post } = await lockOfferFor(tx, member, offerId);
      if (offer.fromUserId === member.id) throw new TradeError("forbidden", TRADE_MESSAGES.ownOffer);
      assertOpen(ctx, offer, input.version);
      if (offer.amountCents !== input.amountCents) throw offerChanged();
      if (post.listingStatus !== "available") throw offerChanged();
      const now = ctx.clock.now();
      await tx
        .update(offers)
        .set({ state: "accepted", version: sql`${offers.version} + 1`, decidedAt: now })
        .where(eq(offers.id, offer.id));
      // Not a bump (decision 0171): reserving does not move the listing in the feed.
      await tx.update(posts).set({ listingStatus: "reserved" }).where(eq(posts.id, post.id));
      const [deal] = await tx
        .insert(deals)
        .values({
          campusId: offer.campusId,
          postId: post.id,
          chatId: offer.chatId,
          sellerId: offer.sellerId,
          buyerId: offer.buyerId,
          offerId: offer.id,
          amountCents: offer.amountCents,
          createdAt: now,
        })
        .returning({ id: deals.id });
      if (!deal) throw new Error("trade: the deal was not inserted");
      const listing = { id: post.id, campusId: post.campusId, authorId: post.authorId };
      await setChatListing(tx, offer.chatId, post.id);
      await appendTradeMessage(
        ctx,
        tx,
        { id: offer.chatId, campusId: offer.campusId },
        member.id,
        offer.fromUserId,
        { text: SYSTEM_LINES["deal-started"], systemEvent: "deal-started" },
      );
      await notify(tx, ctx, {
        type: "offer",
        event: "accepted",
        to: offer.fromUserId,
        actorId: member.id,
        campusId: offer.campusId,
        postId: post.id,
        chatId: offer.chatId,
        offerId: offer.id,
        dealId: deal.id,
      });
      await closePendingOffers(ctx, tx, listing, { why: "offer-closed", exceptOfferId: offer.id });
      return { dealId: deal.id, chatId: offer.chatId };
    });
  } catch (error) {
    if (isUniqueViolation(error, "deals_one_active_unique")) throw offerChanged();
    throw error;
  }
}
