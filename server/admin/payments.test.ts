import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleLog, ownSession } from "../../tests/support/console";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { boostPost } from "../ads/boost";
import { payTestCheckout } from "../ads/fulfilment";
import { DAY_MS } from "../ads/refunds";
import { ads, payments } from "../db/schema";
import { ADMIN_MESSAGES } from "./errors.shared";
import { getLedger } from "./ledger";
import { getPaymentsPage, newRefundKey, refundAd } from "./payments";
import { suspendStudent } from "./student-actions";

let t: TestContext;
let admin: TestMember;
let moderator: TestMember;
let owner: TestMember;
let own: { token: string };
beforeAll(async () => {
  t = await createTestContext();
  admin = await createSiteAdmin(t);
  moderator = await createModerator(t, "ou");
  owner = await createTestMember(t);
  own = await ownSession(t, admin.id, 1);
});
afterAll(() => t.close());

/** A post boosted for `days` and paid through the test checkout (as the ads tests do). */
async function runningAd(days = 4): Promise<string> {
  const post = await createTestPost(t, owner.viewer, { text: `Desk lamp ${Math.random()}` });
  const { adId } = await boostPost(
    t.ctx,
    owner.viewer,
    { postId: post.id, campusId: "ou" },
    {
      goal: "website",
      websiteUrl: "https://www.example.com",
      buttonLabel: "Shop Now",
      title: "Lamp",
      days: String(days),
    },
    "http://ou.localhost:3000",
  );
  const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
  if (!ad?.checkoutSessionId) throw new Error("no session");
  await payTestCheckout(t.ctx, owner.viewer, {
    sessionId: ad.checkoutSessionId,
    card: "4242 4242 4242 4242",
  });
  return adId;
}

async function refundsOf(adId: string) {
  return (await t.ctx.db.select().from(payments).where(eq(payments.adId, adId))).filter(
    (p) => p.kind === "refund",
  );
}

describe("refunds from the console (decision 0560)", () => {
  it("in full, once: a second click or replay with the key shows the first refund and changes nothing", async () => {
    const adId = await runningAd(4);
    const key = newRefundKey();
    const first = await refundAd(t.ctx, admin.viewer, { adId, mode: "full", idempotencyKey: key }, own);
    expect(first).toMatchObject({ amount: 2000, replayed: false });
    const again = await refundAd(t.ctx, admin.viewer, { adId, mode: "full", idempotencyKey: key }, own);
    expect(again).toMatchObject({ refundId: first.refundId, amount: 2000, replayed: true });
    const rows = await refundsOf(adId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ idempotencyKey: key, amount: 2000, status: "succeeded" });
    const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
    expect(ad).toMatchObject({ status: "stopped", amountRefunded: 2000 });
    // A fresh form (a new key) finds nothing left to give back.
    await expect(
      refundAd(t.ctx, admin.viewer, { adId, mode: "full", idempotencyKey: newRefundKey() }, own),
    ).rejects.toMatchObject({ message: ADMIN_MESSAGES.nothingToRefund });
    const [log] = await consoleLog(t, { targetId: adId });
    expect(log).toMatchObject({
      action: "refund",
      actorId: admin.id,
      targetKind: "ad",
      targetUserId: owner.id,
      details: { amount: 2000, mode: "full", refundId: first.refundId, stopped: true },
    });
    expect(await consoleLog(t, { targetId: adId })).toHaveLength(1);
  });

  it("two clicks at once make one refund", async () => {
    const adId = await runningAd(3);
    const key = newRefundKey();
    const both = await Promise.all([
      refundAd(t.ctx, admin.viewer, { adId, mode: "full", idempotencyKey: key }, own),
      refundAd(t.ctx, admin.viewer, { adId, mode: "full", idempotencyKey: key }, own),
    ]);
    expect(new Set(both.map((refund) => refund.refundId)).size).toBe(1);
    expect(await refundsOf(adId)).toHaveLength(1);
  });

  it("the unused days: whole days left, through the ads' own refund (decision 0272)", async () => {
    const adId = await runningAd(5);
    t.clock.advance(DAY_MS + 60_000);
    own = await ownSession(t, admin.id, 1);
    const refund = await refundAd(
      t.ctx,
      admin.viewer,
      { adId, mode: "unused", idempotencyKey: newRefundKey() },
      own,
    );
    expect(refund.amount).toBe(3 * 500);
    const [row] = await refundsOf(adId);
    expect(row?.description).toContain("3 unused days");
    own = await ownSession(t, admin.id, 1);
  });

  it("a moderator and a student get the 404; a crafted ad id, or a key of another ad's refund, too", async () => {
    const adId = await runningAd(2);
    for (const who of [moderator, owner]) {
      const theirs = await ownSession(t, who.id, 1);
      await expect(
        refundAd(t.ctx, who.viewer, { adId, mode: "full", idempotencyKey: newRefundKey() }, theirs),
      ).rejects.toMatchObject({ status: 404 });
      await expect(getPaymentsPage(t.ctx, who.viewer)).rejects.toMatchObject({ status: 404 });
    }
    await expect(
      refundAd(
        t.ctx,
        admin.viewer,
        { adId: "00000000-0000-4000-8000-000000000000", mode: "full", idempotencyKey: newRefundKey() },
        own,
      ),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      refundAd(
        t.ctx,
        admin.viewer,
        { adId: "not-a-uuid", mode: "full", idempotencyKey: newRefundKey() },
        own,
      ),
    ).rejects.toMatchObject({ status: 404 });
    const key = newRefundKey();
    await refundAd(t.ctx, admin.viewer, { adId, mode: "full", idempotencyKey: key }, own);
    const other = await runningAd(2);
    await expect(
      refundAd(t.ctx, admin.viewer, { adId: other, mode: "full", idempotencyKey: key }, own),
    ).rejects.toMatchObject({ status: 404 });
    expect(await refundsOf(other)).toEqual([]);
  });

  it("asks for the password after 10 minutes, and refunds nothing without it", async () => {
    const adId = await runningAd(2);
    const stale = await ownSession(t, admin.id, 30);
    await expect(
      refundAd(t.ctx, admin.viewer, { adId, mode: "full", idempotencyKey: newRefundKey() }, stale),
    ).rejects.toMatchObject({ code: "reauth-required" });
    expect(await refundsOf(adId)).toEqual([]);
    await refundAd(
      t.ctx,
      admin.viewer,
      { adId, mode: "full", idempotencyKey: newRefundKey(), password: admin.password },
      stale,
    );
    expect(await refundsOf(adId)).toHaveLength(1);
    own = await ownSession(t, admin.id, 1);
  });

  it("a suspension from the console pauses the student's running ads", async () => {
    const student = await createTestMember(t);
    const previous = owner;
    owner = student;
    const adId = await runningAd(3);
    owner = previous;
    await suspendStudent(
      t.ctx,
      admin.viewer,
      { studentId: student.id, days: "1", reasonCode: "spam", reason: "Spam listings" },
      own,
    );
    const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
    expect(ad?.status).toBe("paused");
  });
});

describe("the ledger (decision 0565)", () => {
  it("per day: payments less refunds beside the test checkout's completed sessions less its confirmed refunds", async () => {
    const fresh = await createTestContext();
    try {
      const seller = await createTestMember(fresh);
      const post = await createTestPost(fresh, seller.viewer, { text: "Bike" });
      const { adId } = await boostPost(
        fresh.ctx,
        seller.viewer,
        { postId: post.id, campusId: "ou" },
        {
          goal: "website",
          websiteUrl: "https://www.example.com",
          buttonLabel: "Shop Now",
          title: "Bike",
          days: "6",
        },
        "http://ou.localhost:3000",
      );
      const [ad] = await fresh.ctx.db.select().from(ads).where(eq(ads.id, adId));
      await payTestCheckout(fresh.ctx, seller.viewer, {
        sessionId: ad?.checkoutSessionId ?? "",
        card: "4242 4242 4242 4242",
      });
      const boss = await createSiteAdmin(fresh);
      fresh.clock.advance(60 * 60_000);
      const bossSession = await ownSession(fresh, boss.id, 1);
      await refundAd(
        fresh.ctx,
        boss.viewer,
        { adId, mode: "unused", idempotencyKey: newRefundKey() },
        bossSession,
      );
      const ledger = await getLedger(fresh.ctx);
      const today = fresh.clock.now().toISOString().slice(0, 10);
      // 6 days paid ($30); the refund gives back the 5 whole days left ($25).
      expect(ledger.test).toEqual([{ day: today, ledger: 3000 - 2500, provider: 3000 - 2500 }]);
      expect(ledger.stripe).toEqual([]);
      // A refund still waiting for the provider is owed in the books but not yet the provider's.
      await fresh.ctx.db.update(payments).set({ status: "pending" }).where(eq(payments.kind, "refund"));
      expect((await getLedger(fresh.ctx)).test).toEqual([{ day: today, ledger: 500, provider: 3000 }]);
      // A day whose sums are nought is still a day with payments: shown, matching.
      await fresh.ctx.db
        .update(payments)
        .set({ status: "succeeded", amount: 3000 })
        .where(eq(payments.kind, "refund"));
      expect((await getLedger(fresh.ctx)).test).toEqual([{ day: today, ledger: 0, provider: 0 }]);
      // Days are the clock's: a month later, none of these.
      fresh.clock.advance(31 * DAY_MS);
      expect((await getLedger(fresh.ctx)).test).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
