import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownSession } from "../../tests/support/console";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin, decisionInput } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { createCompletedDeal } from "../../tests/support/trade";
import { banStudent, liftStudent } from "../admin/student-actions";
import { startConversation } from "../chats/conversations";
import { sendMessage } from "../chats/messages";
import { moderationItems, reputations } from "../db/schema";
import { decideItem } from "../moderation/decisions";
import { listQueue, readQueueFilters } from "../moderation/queue";
import { fileReport } from "../moderation/reports";
import { rowsOf } from "../realtime/backlog";
import { countedStars, getReputation, recountReplySpeeds, reputationQuery } from "./reputation";
import { listReviewsOfUser } from "./review-reads";
import { ratingText, replySpeedText } from "./review-rules.shared";
import { writeReview } from "./reviews";

// Decision 0616: the reputation summary row, on the embedded database and (DATABASE_URL) PostgreSQL.

let t: TestContext;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** A completed deal where both review: `buyer` gives `stars` to `seller`. */
async function tradeAndReview(seller: TestMember, buyer: TestMember, stars: number) {
  const deal = await createCompletedDeal(t, { seller, buyer });
  const buyerReview = await writeReview(t.ctx, buyer.viewer, { dealId: deal.dealId, stars, tags: [] });
  await writeReview(t.ctx, seller.viewer, { dealId: deal.dealId, stars: 5, tags: [] });
  return { ...deal, reviewId: buyerReview.reviewId };
}

async function summaryOf(userId: string) {
  const summary = await getReputation(t.ctx.db, userId);
  if (!summary) throw new Error("no member");
  return summary;
}

describe("the star average", () => {
  it("is 'New seller' below three counted reviews and the average from three up, never a default", async () => {
    const seller = await createTestMember(t);
    expect(ratingText(await summaryOf(seller.id))).toBe("New seller");
    expect(await summaryOf(seller.id)).toMatchObject({ reviewCount: 0, rating: null, tradesCompleted: 0 });
    await tradeAndReview(seller, await createTestMember(t), 5);
    await tradeAndReview(seller, await createTestMember(t), 4);
    expect(await summaryOf(seller.id)).toMatchObject({ reviewCount: 2, rating: null, tradesCompleted: 2 });
    expect(ratingText(await summaryOf(seller.id))).toBe("New seller");
    await tradeAndReview(seller, await createTestMember(t), 4);
    const summary = await summaryOf(seller.id);
    expect(summary).toMatchObject({ reviewCount: 3, tradesCompleted: 3 });
    expect(ratingText(summary)).toBe("★ 4.3 · 3 reviews");
  });

  it("counts a repeat pair once per 90 days", async () => {
    const seller = await createTestMember(t);
    const regular = await createTestMember(t);
    await tradeAndReview(seller, regular, 5);
    t.clock.advance(30 * DAY);
    await tradeAndReview(seller, regular, 1);
    t.clock.advance(30 * DAY);
    await tradeAndReview(seller, await createTestMember(t), 3);
    expect(await summaryOf(seller.id)).toMatchObject({ reviewCount: 2, tradesCompleted: 3 });
    t.clock.advance(31 * DAY);
    await tradeAndReview(seller, regular, 4);
    const summary = await summaryOf(seller.id);
    expect(summary.reviewCount).toBe(3);
    expect(summary.rating).toBeCloseTo(4, 5);
    // The rule on its own: the first of each 90-day run counts.
    const at = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * DAY).toISOString();
    expect(
      countedStars([
        { author_id: "a", stars: 5, published: at(0) },
        { author_id: "a", stars: 1, published: at(89) },
        { author_id: "a", stars: 2, published: at(90) },
        { author_id: "b", stars: 3, published: at(10) },
      ]),
    ).toEqual([5, 3, 2]);
  });

  it("drops the reviews of an account banned since, whichever staff path bans it, and takes them back on lift", async () => {
    const admin = await createSiteAdmin(t);
    const own = await ownSession(t, admin.id, 1);
    const seller = await createTestMember(t);
    const troll = await createTestMember(t);
    await tradeAndReview(seller, troll, 1);
    await tradeAndReview(seller, await createTestMember(t), 5);
    await tradeAndReview(seller, await createTestMember(t), 5);
    expect(ratingText(await summaryOf(seller.id))).toBe("★ 3.7 · 3 reviews");
    const reasons = { reasonCode: "scam", reason: "Sold a phone that does not exist." } as const;
    await banStudent(t.ctx, admin.viewer, { studentId: troll.id, ...reasons }, own);
    expect(await summaryOf(seller.id)).toMatchObject({ reviewCount: 2, rating: null });
    expect(
      (await listReviewsOfUser(t.ctx, null, { userId: seller.id, campusId: "ou", cursor: null })).items,
    ).toHaveLength(2);
    await liftStudent(t.ctx, admin.viewer, { studentId: troll.id, ...reasons });
    expect(ratingText(await summaryOf(seller.id))).toBe("★ 3.7 · 3 reviews");
  });
});

describe("a reported review", () => {
  it("goes to the moderation queue; removed, it leaves the list and the reputation", async () => {
    const moderator = await createModerator(t, "ou");
    const seller = await createTestMember(t);
    const rude = await createTestMember(t);
    const { reviewId } = await tradeAndReview(seller, rude, 1);
    await tradeAndReview(seller, await createTestMember(t), 5);
    await tradeAndReview(seller, await createTestMember(t), 5);
    const reader = await createTestMember(t);
    // Unpublished reviews and one's own are not reportable; a published one is.
    await expect(
      fileReport(t.ctx, rude.viewer, { targetKind: "review", targetId: reviewId, reason: "harassment" }),
    ).rejects.toMatchObject({ message: "You can't report your own review." });
    const filed = await fileReport(t.ctx, reader.viewer, {
      targetKind: "review",
      targetId: reviewId,
      reason: "harassment",
    });
    expect(filed.message).toBe("Review reported. Thanks for letting us know.");
    const queue = await listQueue(t.ctx, moderator.viewer, readQueueFilters({}));
    const row = queue.items.find((item) => item.kind === "review");
    expect(row).toMatchObject({ kindLabel: "Review" });
    const [item] = await t.ctx.db
      .select()
      .from(moderationItems)
      .where(and(eq(moderationItems.targetKind, "review"), eq(moderationItems.targetId, reviewId)));
    if (!item) throw new Error("no item");
    expect(item.targetUserId).toBe(rude.id);
    await decideItem(t.ctx, moderator.viewer, decisionInput(item, "remove"));
    const list = await listReviewsOfUser(t.ctx, null, { userId: seller.id, campusId: "ou", cursor: null });
    expect(list.items.map((review) => review.id)).not.toContain(reviewId);
    expect(await summaryOf(seller.id)).toMatchObject({ reviewCount: 2, rating: null });
  });
});

describe("reply speed", () => {
  it("is the median first reply of the last 90 days, counted by the hourly job", async () => {
    const seller = await createTestMember(t);
    const asker = await createTestMember(t);
    const other = await createTestMember(t);
    const first = await startConversation(t.ctx, asker.viewer, {
      recipientId: seller.id,
      text: "Still available?",
    });
    t.clock.advance(20 * 60 * 1000);
    await sendMessage(t.ctx, seller.viewer, first.chatId, { text: "Yes!" });
    const second = await startConversation(t.ctx, other.viewer, { recipientId: seller.id, text: "Hi" });
    t.clock.advance(40 * 60 * 1000);
    await sendMessage(t.ctx, seller.viewer, second.chatId, { text: "Hello" });
    await recountReplySpeeds(t.ctx);
    const summary = await summaryOf(seller.id);
    expect(summary.replySeconds).toBe(30 * 60);
    expect(replySpeedText(summary.replySeconds)).toBe("Usually replies within an hour");
    expect(replySpeedText(3 * 60 * 60)).toBe("Usually replies within a few hours");
    expect(replySpeedText(20 * 60 * 60)).toBe("Usually replies within a day");
    const [row] = await t.ctx.db.select().from(reputations).where(eq(reputations.userId, seller.id));
    expect(row?.reviewCount).toBe(0);
  });
});

describe("the reputation line's cost", () => {
  it("is one query served by the two primary keys (EXPLAIN)", async () => {
    const db = t.ctx.db;
    await db.execute(sql`
      insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified)
      select 'rep-user-' || g, 'Rep U.', 'rep-user-' || g || '@example.edu', 'Rep', 'U.', 'repu' || g, 'ou', true
      from generate_series(1, 3000) g`);
    await db.execute(sql`
      insert into reputations (user_id, review_count, rating, trades_completed)
      select 'rep-user-' || g, g % 20, case when g % 20 >= 3 then 4.5 end, g % 7 from generate_series(1, 3000) g`);
    await db.execute(sql`analyze "user"`);
    await db.execute(sql`analyze reputations`);
    const plan = rowsOf<Record<string, string>>(
      await db.execute(sql`explain ${reputationQuery("rep-user-1234")}`),
    )
      .map((row) => Object.values(row)[0])
      .join("\n");
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toMatch(/Index Scan using user_pkey/);
    expect(plan).toMatch(/reputations_pkey/);
    expect(await summaryOf("rep-user-1234")).toMatchObject({ reviewCount: 14, tradesCompleted: 2 });
  });
});
