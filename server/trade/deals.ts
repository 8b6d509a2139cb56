import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { endAdsOfPost } from "../ads/lifecycle";
import { processPendingRefunds } from "../ads/refunds";
import { requireSender } from "../chats/access";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { isUuid } from "../db/ids";
import { chats, deals, listingWatches, offers, posts, user } from "../db/schema";
import { notify } from "../notifications/notify";
import { listingAvailableAgain } from "../posts/listing-status";
import { type LockedPost, lockPost } from "../posts/post-lock";
import { wakeSavedSearchMatcher } from "../search/saved-search-matching-queue";
import { activeDealOf, closePendingOffers, completeDealRow, countCompletedTrade } from "./offer-closing";
import { cancelReasonSchema, SYSTEM_LINES, TRADE_MESSAGES } from "./offer-rules.shared";
import { appendTradeMessage } from "./trade-chat";
import { dealNotFound, TradeError } from "./trade-errors";

/**
 * Deals (decision 0604): Active → Completed (the seller marks it sold, or the buyer taps 'I got
 * it') or Cancelled (either side, with a reason), and 'Mark sold to…' without an offer. Each
 * locks the listing first, as every writer of the trade does.
 */

type DealRow = typeof deals.$inferSelect;

/** The deal and its listing, locked, if the viewer is one of its two people; else not found. */
async function lockDealFor(
  tx: Tx,
  viewer: Viewer,
  dealId: string,
): Promise<{ deal: DealRow; post: LockedPost }> {
  if (!isUuid(dealId)) throw dealNotFound();
  const [found] = await tx
    .select({
      postId: deals.postId,
      sellerId: deals.sellerId,
      buyerId: deals.buyerId,
      campusId: deals.campusId,
    })
    .from(deals)
    .where(eq(deals.id, dealId))
    .limit(1);
  if (
    !found ||
    found.campusId !== viewer.campusId ||
    (found.sellerId !== viewer.id && found.buyerId !== viewer.id)
  ) {
    throw dealNotFound();
  }
  const post = await lockPost(tx, found.postId);
  const [deal] = await tx.select().from(deals).where(eq(deals.id, dealId)).for("update").limit(1);
  if (!deal) throw dealNotFound();
  return { deal, post };
}

async function markSold(ctx: AppContext, tx: Tx, postId: string): Promise<void> {
  await tx.update(posts).set({ listingStatus: "sold" }).where(eq(posts.id, postId));
  // Decision 0272, as a manual 'Mark as sold': a sold listing's ad ends and unused days are refunded.
  await endAdsOfPost(ctx, tx, postId, "Refund: post sold");
}

/** Decision 0604: the seller's 'Mark sold' or the buyer's 'I got it' on an active deal. */
export async function completeDeal(ctx: AppContext, viewer: Viewer | null, dealId: string): Promise<void> {
  const member = requireSender(viewer, ctx.clock.now());
  await ctx.db.transaction(async (tx) => {
    const { deal, post } = await lockDealFor(tx, member, dealId);
    if (deal.state !== "active") throw new TradeError("conflict", TRADE_MESSAGES.offerChanged);
    const listing = { id: post.id, campusId: post.campusId, authorId: post.authorId };
    await completeDealRow(ctx, tx, listing, deal, member.id);
    await markSold(ctx, tx, post.id);
    await closePendingOffers(ctx, tx, listing, { why: "listing-closed" });
  });
  await processPendingRefunds(ctx);
}

/**
 * Decision 0604 'Cancel deal': either side, with a reason (≤ 500). The listing is Available again
 * and the people who asked to be told are told (listingAvailableAgain), in this transaction.
 */
export async function cancelDeal(
  ctx: AppContext,
  viewer: Viewer | null,
  dealId: string,
  input: { reason: unknown },
): Promise<void> {
  const member = requireSender(viewer, ctx.clock.now());
  const reason = cancelReasonSchema.safeParse(input.reason);
  if (!reason.success) {
    throw new TradeError(
      "invalid-input",
      reason.error.issues[0]?.message ?? TRADE_MESSAGES.reasonRequired,
      "reason",
    );
  }
  await ctx.db.transaction(async (tx) => {
    const { deal, post } = await lockDealFor(tx, member, dealId);
    if (deal.state !== "active") throw new TradeError("conflict", TRADE_MESSAGES.offerChanged);
    const now = ctx.clock.now();
    await tx
      .update(deals)
      .set({ state: "cancelled", cancelledAt: now, cancelledBy: member.id, cancelReason: reason.data })
      .where(eq(deals.id, deal.id));
    const other = member.id === deal.sellerId ? deal.buyerId : deal.sellerId;
    if (deal.chatId) {
      await appendTradeMessage(ctx, tx, { id: deal.chatId, campusId: deal.campusId }, member.id, other, {
        text: SYSTEM_LINES["deal-cancelled"],
        systemEvent: "deal-cancelled",
      });
    }
    await notify(tx, ctx, {
      type: "deal",
      event: "cancelled",
      to: other,
      actorId: member.id,
      campusId: deal.campusId,
      postId: post.id,
      chatId: deal.chatId,
      dealId: deal.id,
    });
    if (post.listingStatus === "reserved") {
      await tx.update(posts).set({ listingStatus: "available" }).where(eq(posts.id, post.id));
      const watchers = await tx
        .select({ userId: listingWatches.userId })
        .from(listingWatches)
        .where(eq(listingWatches.postId, post.id));
      await listingAvailableAgain(
        ctx,
        tx,
        { id: post.id, campusId: post.campusId, authorId: post.authorId },
        watchers.map((row) => row.userId),
      );
    }
  });
  // Decision 0621: a listing Available again was queued for the saved searches in that transaction.
  wakeSavedSearchMatcher(ctx);
}

/**
 * Decision 0604 'Mark sold to…': the people the seller may name, those who messaged about the
 * listing (its conversations) or made an offer on it, at most 50, by name.
 */
export async function listBuyersToMark(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<{ id: string; name: string; username: string }[]> {
  const seller = requireSender(viewer, ctx.clock.now());
  if (!isUuid(postId)) return [];
  const [post] = await ctx.db
    .select({ authorId: posts.authorId })
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.campusId, seller.campusId)))
    .limit(1);
  if (!post || post.authorId !== seller.id) return [];
  const rows = await ctx.db
    .selectDistinct({
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      username: user.username,
    })
    .from(user)
    .where(
      and(
        ne(user.id, seller.id),
        isNull(user.deletedAt),
        or(
          inArray(
            user.id,
            ctx.db
              .select({
                id: sql<string>`case when ${chats.fromUserId} = ${seller.id} then ${chats.toUserId} else ${chats.fromUserId} end`,
              })
              .from(chats)
              .where(
                and(
                  eq(chats.postId, postId),
                  or(eq(chats.fromUserId, seller.id), eq(chats.toUserId, seller.id)),
                ),
              ),
          ),
          inArray(
            user.id,
            ctx.db.select({ id: offers.buyerId }).from(offers).where(eq(offers.postId, postId)),
          ),
        ),
      ),
    )
    .limit(50);
  return rows.map((row) => ({
    id: row.id,
    name: `${row.firstName} ${row.lastName}`,
    username: row.username,
  }));
}

/**
 * Decision 0604 'Mark sold to…': the seller names the buyer (one of listBuyersToMark) and the sale
 * is a completed deal at once, or 'Someone else' (`buyerId` null): Sold with no deal. An active
 * deal with that buyer completes; with another it must be cancelled first. Pending offers close.
 */
export async function markSoldTo(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { postId: string; buyerId: string | null },
): Promise<{ dealId: string | null }> {
  const seller = requireSender(viewer, ctx.clock.now());
  if (!isUuid(input.postId)) throw new TradeError("not-found", TRADE_MESSAGES.listingGone);
  if (input.buyerId !== null) {
    const allowed = await listBuyersToMark(ctx, seller, input.postId);
    if (!allowed.some((person) => person.id === input.buyerId)) {
      throw new TradeError("invalid-input", TRADE_MESSAGES.notAPerson, "buyerId");
    }
  }
  const result = await ctx.db.transaction(async (tx) => {
    const post = await lockPost(tx, input.postId);
    if (post.authorId !== seller.id || post.campusId !== seller.campusId || post.parentId !== null) {
      throw new TradeError("not-found", TRADE_MESSAGES.listingGone);
    }
    if (post.listingStatus === "sold") throw new TradeError("conflict", TRADE_MESSAGES.notAvailable);
    const listing = { id: post.id, campusId: post.campusId, authorId: post.authorId };
    const active = await activeDealOf(tx, post.id);
    let dealId: string | null = null;
    if (active) {
      if (active.buyerId !== input.buyerId) throw new TradeError("conflict", TRADE_MESSAGES.activeDeal);
      await completeDealRow(ctx, tx, listing, active, seller.id);
      dealId = active.id;
    } else if (input.buyerId !== null) {
      dealId = await insertCompletedDeal(ctx, tx, post, input.buyerId);
    }
    await markSold(ctx, tx, post.id);
    await closePendingOffers(ctx, tx, listing, { why: "listing-closed" });
    return { dealId };
  });
  await processPendingRefunds(ctx);
  return result;
}

async function insertCompletedDeal(
  ctx: AppContext,
  tx: Tx,
  post: LockedPost,
  buyerId: string,
): Promise<string> {
  const now = ctx.clock.now();
  const [chat] = await tx
    .select({ id: chats.id })
    .from(chats)
    .where(
      and(
        eq(chats.campusId, post.campusId),
        or(
          and(eq(chats.fromUserId, post.authorId), eq(chats.toUserId, buyerId)),
          and(eq(chats.fromUserId, buyerId), eq(chats.toUserId, post.authorId)),
        ),
      ),
    )
    .limit(1);
  const [deal] = await tx
    .insert(deals)
    .values({
      campusId: post.campusId,
      postId: post.id,
      chatId: chat?.id ?? null,
      sellerId: post.authorId,
      buyerId,
      state: "completed",
      createdAt: now,
      completedAt: now,
    })
    .returning({ id: deals.id });
  if (!deal) throw new Error("trade: the deal was not inserted");
  await countCompletedTrade(ctx, tx, [post.authorId, buyerId]);
  if (chat) {
    await appendTradeMessage(ctx, tx, { id: chat.id, campusId: post.campusId }, post.authorId, buyerId, {
      text: SYSTEM_LINES["deal-completed"],
      systemEvent: "deal-completed",
    });
  }
  await notify(tx, ctx, {
    type: "deal",
    event: "completed",
    to: buyerId,
    actorId: post.authorId,
    campusId: post.campusId,
    postId: post.id,
    chatId: chat?.id ?? null,
    dealId: deal.id,
  });
  return deal.id;
}
