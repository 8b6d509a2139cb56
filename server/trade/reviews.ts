import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { blockBetween } from "../chats/blocks";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUuid } from "../db/ids";
import { deals, reviews } from "../db/schema";
import { notify } from "../notifications/notify";
import { rowsOf } from "../realtime/backlog";
import { parseInput } from "../validation";
import { recountReputation } from "./reputation";
import { invalidReviewInput, ReviewError } from "./review-errors";
import {
  REVIEW_MESSAGES,
  REVIEW_TAGS,
  REVIEW_WINDOW_MS,
  type ReplyToReviewInput,
  type ReviewRole,
  replyToReviewSchema,
  type WriteReviewInput,
  writeReviewSchema,
} from "./review-rules.shared";

/**
 * Reviews (decision 0615, docs/product/reviews-and-reputation.md): the two people of a completed
 * deal review each other within 14 days of its completion, blind: each review is public at
 * `publishes_at` — the completion plus 14 days, or the moment the second review is written, for
 * both — compared with the clock when read. Every rule here, whatever a route sends.
 */

export interface DealForReview {
  id: string;
  campusId: string;
  postId: string;
  sellerId: string;
  buyerId: string;
  state: "active" | "completed" | "cancelled";
  completedAt: Date | null;
  reviewsSettledAt: Date | null;
}

const notFound = () => new ReviewError("not-found", REVIEW_MESSAGES.notFound);

/**
 * The deal, locked (FOR UPDATE) when `lock`, if `viewerId` is one of its two people; anyone else,
 * or a deal that is not there, gets the same 404 (an id tells a stranger nothing).
 */
export async function dealOfParticipant(
  db: Queryable,
  viewerId: string,
  dealId: string,
  lock: boolean,
): Promise<DealForReview> {
  if (!isUuid(dealId)) throw notFound();
  const query = db
    .select({
      id: deals.id,
      campusId: deals.campusId,
      postId: deals.postId,
      sellerId: deals.sellerId,
      buyerId: deals.buyerId,
      state: deals.state,
      completedAt: deals.completedAt,
      reviewsSettledAt: deals.reviewsSettledAt,
    })
    .from(deals)
    .where(eq(deals.id, dealId))
    .limit(1);
  const [deal] = lock ? await query.for("update") : await query;
  if (!deal || (deal.sellerId !== viewerId && deal.buyerId !== viewerId)) throw notFound();
  return deal;
}

/** The end of a completed deal's review window. */
export function reviewWindowEnd(deal: Pick<DealForReview, "completedAt">): Date | null {
  return deal.completedAt ? new Date(deal.completedAt.getTime() + REVIEW_WINDOW_MS) : null;
}

/** Whom `viewerId` reviews on this deal, and in which role that person traded. */
export function otherSide(deal: DealForReview, viewerId: string): { subjectId: string; role: ReviewRole } {
  return viewerId === deal.sellerId
    ? { subjectId: deal.buyerId, role: "buyer" }
    : { subjectId: deal.sellerId, role: "seller" };
}

function requireReviewer(viewer: Viewer | null): Viewer {
  // A signed-out or banned account reaches no deal.
  if (!viewer || viewer.banned) throw notFound();
  return viewer;
}

/**
 * Decision 0615: writes the viewer's review of the other person of a completed deal. One
 * transaction with the deal row locked, so the two reviews' publication cannot race: the first
 * is hidden until the window ends and its subject is told 'review:received'; the second
 * publishes both now, tells both, and recounts both reputations.
 */
export async function writeReview(
  ctx: AppContext,
  viewer: Viewer | null,
  input: WriteReviewInput,
): Promise<{ reviewId: string; published: boolean }> {
  const author = requireReviewer(viewer);
  const value = parseInput(writeReviewSchema, input, invalidReviewInput);
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    const deal = await dealOfParticipant(tx, author.id, value.dealId, true);
    const windowEnd = reviewWindowEnd(deal);
    if (deal.state !== "completed" || !windowEnd) {
      throw new ReviewError("not-completed", REVIEW_MESSAGES.notCompleted);
    }
    if (now.getTime() >= windowEnd.getTime()) {
      throw new ReviewError("window-closed", REVIEW_MESSAGES.windowClosed);
    }
    const { subjectId, role } = otherSide(deal, author.id);
    if ((await blockBetween(tx, author.id, subjectId)) !== "none") {
      throw new ReviewError("forbidden", REVIEW_MESSAGES.blocked);
    }
    const allowed: readonly string[] = REVIEW_TAGS[role];
    const tags = [...new Set(value.tags)];
    if (tags.some((tag) => !allowed.includes(tag))) {
      throw new ReviewError("invalid-input", REVIEW_MESSAGES.unknownTag, "tags");
    }
    const existing = await tx
      .select({ id: reviews.id, authorId: reviews.authorId })
      .from(reviews)
      .where(eq(reviews.dealId, deal.id));
    if (existing.some((row) => row.authorId === author.id)) {
      throw new ReviewError("already-reviewed", REVIEW_MESSAGES.alreadyReviewed);
    }
    const theirs = existing.find((row) => row.authorId === subjectId);
    const [inserted] = await tx
      .insert(reviews)
      .values({
        campusId: deal.campusId,
        dealId: deal.id,
        authorId: author.id,
        subjectId,
        subjectRole: role,
        stars: value.stars,
        tags,
        publicText: value.publicText,
        privateNote: value.privateNote === "" ? null : value.privateNote,
        createdAt: now,
        publishesAt: theirs ? now : windowEnd,
      })
      .returning({ id: reviews.id });
    const reviewId = (inserted as { id: string }).id;
    const base = { campusId: deal.campusId, postId: deal.postId, dealId: deal.id };
    if (!theirs) {
      await notify(tx, ctx, {
        ...base,
        type: "review",
        event: "received",
        to: subjectId,
        actorId: author.id,
        reviewId,
      });
      return { reviewId, published: false };
    }
    // The second review: both are published now (decision 0615), for both people.
    await tx.update(reviews).set({ publishesAt: now }).where(eq(reviews.id, theirs.id));
    await notify(tx, ctx, {
      ...base,
      type: "review",
      event: "published",
      to: subjectId,
      actorId: author.id,
      reviewId,
    });
    await recountReputation(tx, ctx, subjectId);
    await recountReputation(tx, ctx, author.id);
    return { reviewId, published: true };
  });
  ctx.wakeMailWorker();
  return result;
}

/**
 * Decision 0615: the person reviewed adds one public reply to a published review of them. A
 * review of someone else, an unpublished or removed one: 404 or the rule's message.
 */
export async function replyToReview(
  ctx: AppContext,
  viewer: Viewer | null,
  input: ReplyToReviewInput,
): Promise<{ replied: true }> {
  const subject = requireReviewer(viewer);
  const value = parseInput(replyToReviewSchema, input, invalidReviewInput);
  if (!isUuid(value.reviewId)) throw new ReviewError("not-found", REVIEW_MESSAGES.reviewNotFound);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [review] = await tx
      .select({
        id: reviews.id,
        campusId: reviews.campusId,
        dealId: reviews.dealId,
        authorId: reviews.authorId,
        subjectId: reviews.subjectId,
        reply: reviews.reply,
        publishesAt: reviews.publishesAt,
        moderationState: reviews.moderationState,
      })
      .from(reviews)
      .where(eq(reviews.id, value.reviewId))
      .limit(1)
      .for("update");
    if (!review || review.subjectId !== subject.id || review.moderationState !== null) {
      throw new ReviewError("not-found", REVIEW_MESSAGES.reviewNotFound);
    }
    if (review.publishesAt.getTime() > now.getTime()) {
      throw new ReviewError("not-published", REVIEW_MESSAGES.notPublished);
    }
    if (review.reply !== null) throw new ReviewError("already-replied", REVIEW_MESSAGES.alreadyReplied);
    await tx.update(reviews).set({ reply: value.reply, repliedAt: now }).where(eq(reviews.id, review.id));
    await notify(tx, ctx, {
      type: "review",
      event: "replied",
      to: review.authorId,
      actorId: subject.id,
      campusId: review.campusId,
      dealId: review.dealId,
      reviewId: review.id,
    });
  });
  ctx.wakeMailWorker();
  return { replied: true };
}

/** Decision 0617: the review job's bound per run. */
export const SETTLE_BATCH = 100;

/**
 * The review job (decision 0617): completed deals whose 14 days have passed and are not settled.
 * Publication itself needs no job (publishes_at is read against the clock); the job tells each
 * subject of a review published by time, recounts both people's reputations (so a completion
 * that missed its recount heals here) and marks the deal settled. One deal per transaction,
 * its row locked, so two runs never tell anyone twice.
 */
export async function settleReviewWindows(ctx: AppContext): Promise<{ more: boolean }> {
  const now = ctx.clock.now();
  const due = new Date(now.getTime() - REVIEW_WINDOW_MS);
  const rows = await ctx.db
    .select({ id: deals.id })
    .from(deals)
    .where(and(eq(deals.state, "completed"), isNull(deals.reviewsSettledAt), lte(deals.completedAt, due)))
    .orderBy(deals.completedAt)
    .limit(SETTLE_BATCH);
  for (const row of rows) {
    await ctx.db.transaction(async (tx) => {
      const [deal] = rowsOf<{
        id: string;
        campus_id: string;
        post_id: string;
        seller_id: string;
        buyer_id: string;
      }>(
        await tx.execute(sql`
          select id, campus_id, post_id, seller_id, buyer_id from deals
          where id = ${row.id} and reviews_settled_at is null for update skip locked`),
      );
      if (!deal) return;
      const written = await tx
        .select({ id: reviews.id, authorId: reviews.authorId, subjectId: reviews.subjectId })
        .from(reviews)
        .where(and(eq(reviews.dealId, deal.id), isNull(reviews.moderationState)));
      // Two reviews were published (and told) when the second was written; one is published by time.
      if (written.length === 1) {
        const [review] = written as [(typeof written)[number]];
        await notify(tx, ctx, {
          type: "review",
          event: "published",
          to: review.subjectId,
          actorId: review.authorId,
          campusId: deal.campus_id,
          postId: deal.post_id,
          dealId: deal.id,
          reviewId: review.id,
        });
      }
      await recountReputation(tx, ctx, deal.seller_id);
      await recountReputation(tx, ctx, deal.buyer_id);
      await tx.update(deals).set({ reviewsSettledAt: now }).where(eq(deals.id, deal.id));
    });
  }
  if (rows.length > 0) ctx.wakeMailWorker();
  return { more: rows.length === SETTLE_BATCH };
}
