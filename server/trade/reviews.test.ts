import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { createCompletedDeal } from "../../tests/support/trade";
import { blockUser } from "../chats/blocks";
import { deals, mailOutbox, notifications, reputations, reviews } from "../db/schema";
import { deliverMailRound } from "../mail/worker";
import { notificationHref } from "../notifications/texts";
import { getDealReviewPage, listReviewsOfUser } from "./review-reads";
import { REVIEW_MESSAGES } from "./review-rules.shared";
import { replyToReview, settleReviewWindows, writeReview } from "./reviews";

// Decision 0615: reviews of a completed deal, blind until both wrote or 14 days passed, on the
// embedded database and (DATABASE_URL) PostgreSQL.

let t: TestContext;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; status: number; message: string };
  }
  throw new Error("expected a refusal");
}

const review = (dealId: string, extra: Record<string, unknown> = {}) => ({
  dealId,
  stars: 5,
  tags: ["friendly"],
  publicText: "Smooth trade.",
  privateNote: "",
  ...extra,
});

function noticesTo(userId: string) {
  return t.ctx.db
    .select({ type: notifications.type, event: notifications.event, reviewId: notifications.reviewId })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, "review")));
}

describe("who may review, and when", () => {
  it("refuses a stranger (404), a deal not completed, and a cancelled one", async () => {
    const { dealId } = await createCompletedDeal(t);
    const stranger = await createTestMember(t);
    const notFound = await refusal(writeReview(t.ctx, stranger.viewer, review(dealId)));
    expect(notFound).toMatchObject({ status: 404, message: REVIEW_MESSAGES.notFound });
    expect(await refusal(writeReview(t.ctx, null, review(dealId)))).toMatchObject({ status: 404 });
    expect(await refusal(writeReview(t.ctx, stranger.viewer, review("not-a-uuid")))).toMatchObject({
      status: 404,
    });

    const active = await createCompletedDeal(t, { state: "active" });
    const early = await refusal(writeReview(t.ctx, active.buyer.viewer, review(active.dealId)));
    expect(early).toMatchObject({ code: "not-completed", message: REVIEW_MESSAGES.notCompleted });
    const cancelled = await createCompletedDeal(t, { state: "cancelled" });
    const late = await refusal(writeReview(t.ctx, cancelled.seller.viewer, review(cancelled.dealId)));
    expect(late.code).toBe("not-completed");
    expect(await t.ctx.db.select().from(reviews).where(eq(reviews.dealId, active.dealId))).toHaveLength(0);
  });

  it("refuses bad input with a message and writes nothing", async () => {
    const { dealId, buyer } = await createCompletedDeal(t);
    for (const stars of [0, 6, 4.5, Number.NaN, "five"]) {
      const refused = await refusal(writeReview(t.ctx, buyer.viewer, review(dealId, { stars })));
      expect(refused).toMatchObject({ status: 400, message: REVIEW_MESSAGES.chooseStars });
    }
    const tooMany = await refusal(
      writeReview(
        t.ctx,
        buyer.viewer,
        review(dealId, { tags: ["friendly", "on_time", "communication", "as_described"] }),
      ),
    );
    expect(tooMany.message).toBe(REVIEW_MESSAGES.tooManyTags);
    // 'Paid as agreed' is a buyer's tag: the buyer reviews the seller.
    const wrongRole = await refusal(
      writeReview(t.ctx, buyer.viewer, review(dealId, { tags: ["paid_as_agreed"] })),
    );
    expect(wrongRole.message).toBe(REVIEW_MESSAGES.unknownTag);
    const long = await refusal(
      writeReview(t.ctx, buyer.viewer, review(dealId, { publicText: "x".repeat(501) })),
    );
    expect(long.message).toBe(REVIEW_MESSAGES.textTooLong);
    const longNote = await refusal(
      writeReview(t.ctx, buyer.viewer, review(dealId, { privateNote: "x".repeat(501) })),
    );
    expect(longNote.message).toBe(REVIEW_MESSAGES.noteTooLong);
    expect(await t.ctx.db.select().from(reviews).where(eq(reviews.dealId, dealId))).toHaveLength(0);
  });

  it("refuses a second review of the same deal, one after the 14 days, and a blocked pair", async () => {
    const { dealId, buyer, seller } = await createCompletedDeal(t);
    await writeReview(t.ctx, buyer.viewer, review(dealId));
    const again = await refusal(writeReview(t.ctx, buyer.viewer, review(dealId)));
    expect(again).toMatchObject({
      code: "already-reviewed",
      status: 409,
      message: REVIEW_MESSAGES.alreadyReviewed,
    });

    const old = await createCompletedDeal(t, { completedAt: new Date(t.clock.now().getTime() - 14 * DAY) });
    const closed = await refusal(writeReview(t.ctx, old.seller.viewer, review(old.dealId)));
    expect(closed).toMatchObject({ code: "window-closed", message: REVIEW_MESSAGES.windowClosed });
    const lastMinute = await createCompletedDeal(t, {
      completedAt: new Date(t.clock.now().getTime() - 14 * DAY + 60_000),
    });
    await expect(
      writeReview(t.ctx, lastMinute.seller.viewer, review(lastMinute.dealId)),
    ).resolves.toMatchObject({
      published: false,
    });

    await blockUser(t.ctx, seller.viewer, buyer.id);
    const blocked = await refusal(writeReview(t.ctx, seller.viewer, review(dealId)));
    expect(blocked).toMatchObject({ status: 403, message: REVIEW_MESSAGES.blocked });
  });
});

describe("blind publication", () => {
  it("hides the first review until the second is written, then publishes both at once", async () => {
    const { dealId, buyer, seller } = await createCompletedDeal(t);
    const first = await writeReview(
      t.ctx,
      buyer.viewer,
      review(dealId, { stars: 4, tags: ["as_described"] }),
    );
    expect(first.published).toBe(false);
    expect(await noticesTo(seller.id)).toEqual([
      { type: "review", event: "received", reviewId: first.reviewId },
    ]);
    expect(
      (await listReviewsOfUser(t.ctx, null, { userId: seller.id, campusId: "ou", cursor: null })).items,
    ).toHaveLength(0);
    const sellerPage = await getDealReviewPage(t.ctx, seller.viewer, dealId);
    expect(sellerPage).toMatchObject({
      theirs: null,
      theirsHidden: true,
      canWrite: true,
      otherRole: "buyer",
    });

    t.clock.advance(DAY);
    const second = await writeReview(
      t.ctx,
      seller.viewer,
      review(dealId, { stars: 5, tags: ["paid_as_agreed"] }),
    );
    expect(second.published).toBe(true);
    const now = t.clock.now().getTime();
    const rows = await t.ctx.db.select().from(reviews).where(eq(reviews.dealId, dealId));
    expect(rows.map((row) => row.publishesAt.getTime())).toEqual([now, now]);
    expect(
      (await listReviewsOfUser(t.ctx, null, { userId: seller.id, campusId: "ou", cursor: null })).items,
    ).toHaveLength(1);
    expect(
      (await listReviewsOfUser(t.ctx, null, { userId: buyer.id, campusId: "ou", cursor: null })).items,
    ).toHaveLength(1);
    expect(await noticesTo(buyer.id)).toEqual([
      { type: "review", event: "published", reviewId: second.reviewId },
    ]);
    const after = await getDealReviewPage(t.ctx, seller.viewer, dealId);
    expect(after).toMatchObject({ theirsHidden: false, canWrite: false });
    expect(after.theirs?.stars).toBe(4);
    // The notices lead to the deal's review page (decision 0618), a chat or not.
    const [row] = await t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, buyer.id), eq(notifications.type, "review")));
    if (!row) throw new Error("no notice");
    expect(notificationHref(row)).toBe(`/deals/${dealId}/review`);
    expect(notificationHref({ ...row, type: "deal", event: "completed", chatId: "c" })).toBe(
      `/deals/${dealId}/review`,
    );
    expect(notificationHref({ ...row, type: "deal", event: "started", chatId: "c" })).toBe("/messages/c");
  });

  it("publishes a lone review when the 14 days pass, by the clock; the job tells and settles once", async () => {
    const { dealId, buyer, seller } = await createCompletedDeal(t);
    const written = await writeReview(t.ctx, buyer.viewer, review(dealId));
    t.clock.advance(14 * DAY - 1000);
    expect(
      (await listReviewsOfUser(t.ctx, null, { userId: seller.id, campusId: "ou", cursor: null })).items,
    ).toHaveLength(0);
    t.clock.advance(1000);
    // No job has run: the review is public by the clock alone.
    expect(
      (await listReviewsOfUser(t.ctx, null, { userId: seller.id, campusId: "ou", cursor: null })).items,
    ).toHaveLength(1);
    const late = await refusal(writeReview(t.ctx, seller.viewer, review(dealId, { tags: [] })));
    expect(late.code).toBe("window-closed");

    await settleReviewWindows(t.ctx);
    await settleReviewWindows(t.ctx);
    const published = (await noticesTo(seller.id)).filter((row) => row.event === "published");
    expect(published).toEqual([{ type: "review", event: "published", reviewId: written.reviewId }]);
    const [deal] = await t.ctx.db.select().from(deals).where(eq(deals.id, dealId));
    expect(deal?.reviewsSettledAt?.getTime()).toBe(t.clock.now().getTime());
    // The job's recount fills what a missed completion recount left: the trade is counted.
    const [rep] = await t.ctx.db.select().from(reputations).where(eq(reputations.userId, seller.id));
    expect(rep).toMatchObject({ tradesCompleted: 1, reviewCount: 1, rating: null });
  });
});

describe("the reply", () => {
  it("lets the subject reply once to a published review; nobody else", async () => {
    const { dealId, buyer, seller } = await createCompletedDeal(t);
    const { reviewId } = await writeReview(t.ctx, buyer.viewer, review(dealId));
    const early = await refusal(replyToReview(t.ctx, seller.viewer, { reviewId, reply: "Thanks!" }));
    expect(early).toMatchObject({ code: "not-published", message: REVIEW_MESSAGES.notPublished });
    await writeReview(t.ctx, seller.viewer, review(dealId, { tags: [] }));
    const stranger = await createTestMember(t);
    expect(await refusal(replyToReview(t.ctx, stranger.viewer, { reviewId, reply: "Hi" }))).toMatchObject({
      status: 404,
    });
    expect(await refusal(replyToReview(t.ctx, buyer.viewer, { reviewId, reply: "Hi" }))).toMatchObject({
      status: 404,
    });
    expect(await refusal(replyToReview(t.ctx, seller.viewer, { reviewId, reply: "   " }))).toMatchObject({
      message: REVIEW_MESSAGES.replyEmpty,
    });
    await replyToReview(t.ctx, seller.viewer, { reviewId, reply: "Thanks!" });
    const again = await refusal(replyToReview(t.ctx, seller.viewer, { reviewId, reply: "Again" }));
    expect(again).toMatchObject({ code: "already-replied", message: REVIEW_MESSAGES.alreadyReplied });
    const page = await listReviewsOfUser(t.ctx, null, { userId: seller.id, campusId: "ou", cursor: null });
    expect(page.items[0]).toMatchObject({ reply: "Thanks!", canReply: false });
    expect((await noticesTo(buyer.id)).map((row) => row.event)).toContain("replied");
  });
});

describe("the private note", () => {
  it("reaches its subject only: not the author, a stranger, a visitor, a notice or an e-mail", async () => {
    const secret = "Please answer faster next time SECRET-NOTE-7";
    const { dealId, buyer, seller } = await createCompletedDeal(t);
    const stranger: TestMember = await createTestMember(t);
    await writeReview(t.ctx, buyer.viewer, review(dealId, { privateNote: secret }));
    // Hidden: not even its subject reads it before publication.
    expect(JSON.stringify(await getDealReviewPage(t.ctx, seller.viewer, dealId))).not.toContain(
      "SECRET-NOTE-7",
    );
    await writeReview(t.ctx, seller.viewer, review(dealId, { tags: [] }));

    const subjectList = await listReviewsOfUser(t.ctx, seller.viewer, {
      userId: seller.id,
      campusId: "ou",
      cursor: null,
    });
    expect(subjectList.items[0]?.privateNote).toBe(secret);
    expect((await getDealReviewPage(t.ctx, seller.viewer, dealId)).theirs?.privateNote).toBe(secret);
    for (const viewer of [null, stranger.viewer, buyer.viewer]) {
      const list = await listReviewsOfUser(t.ctx, viewer, {
        userId: seller.id,
        campusId: "ou",
        cursor: null,
      });
      expect(list.items).toHaveLength(1);
      expect(JSON.stringify(list)).not.toContain("SECRET-NOTE-7");
    }
    expect(JSON.stringify(await getDealReviewPage(t.ctx, buyer.viewer, dealId))).not.toContain(
      "SECRET-NOTE-7",
    );
    const rows = await t.ctx.db.select().from(notifications);
    expect(JSON.stringify(rows)).not.toContain("SECRET-NOTE-7");
    await deliverMailRound(t.ctx);
    expect(JSON.stringify(await t.ctx.db.select().from(mailOutbox))).not.toContain("SECRET-NOTE-7");
    for (const mail of t.mail.sent) expect(JSON.stringify(mail)).not.toContain("SECRET-NOTE-7");
  });
});
