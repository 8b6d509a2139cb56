import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { createCompletedDeal } from "../../tests/support/trade";
import { startConversation } from "../chats/conversations";
import { chats, moderationLog, reputations, strikes, user } from "../db/schema";
import { reporterWeight } from "../moderation/weights";
import { rowsOf } from "../realtime/backlog";
import { recountReputation } from "../trade/reputation";
import { TrustError } from "./gates";
import {
  conversationLimitMessage,
  levelFromFacts,
  pricedListingLimitMessage,
  type TrustFacts,
} from "./levels.shared";
import { recountStatement, recountTrustLevel } from "./recount";
import { getOwnTrustLevel, readTrustStanding, setTrustLock } from "./standing";

// Decisions 0660-0663: trust levels, on the embedded database and (DATABASE_URL) PostgreSQL.

let t: TestContext;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 0, perDay: 0 } });
});
afterAll(() => t.close());

async function levelOf(id: string) {
  return recountTrustLevel(t.ctx.db, t.ctx, id);
}

/** The account's creation moved back `days` days by the clock. */
async function age(member: TestMember, days: number) {
  await t.ctx.db
    .update(user)
    .set({ createdAt: new Date(t.clock.now().getTime() - days * DAY) })
    .where(eq(user.id, member.id));
}

async function setReputation(member: TestMember, trades: number, reviews = 0, rating: number | null = null) {
  await t.ctx.db
    .insert(reputations)
    .values({ userId: member.id, tradesCompleted: trades, reviewCount: reviews, rating })
    .onConflictDoUpdate({
      target: reputations.userId,
      set: { tradesCompleted: trades, reviewCount: reviews, rating },
    });
}

async function strike(member: TestMember, daysAgo: number) {
  const [row] = await t.ctx.db
    .insert(strikes)
    .values({
      campusId: "ou",
      userId: member.id,
      action: "warn",
      targetKind: "user",
      targetId: member.id,
      reasonCode: "spam",
      publicReason: "Spam",
      createdAt: new Date(t.clock.now().getTime() - daysAgo * DAY),
    })
    .returning({ id: strikes.id });
  return row?.id ?? "";
}

describe("the levels' thresholds", () => {
  it("starts New; Basic by 7 days or by the first completed trade", async () => {
    const a = await createTestMember(t);
    expect(await levelOf(a.id)).toBe(0);
    await age(a, 6);
    expect(await levelOf(a.id)).toBe(0);
    await age(a, 7);
    expect(await levelOf(a.id)).toBe(1);

    const b = await createTestMember(t);
    const deal = await createCompletedDeal(t, { seller: b });
    await t.ctx.db.transaction((tx) => recountReputation(tx, t.ctx, b.id));
    // The reputation recount recounts the level beside it.
    const [row] = await t.ctx.db.select({ level: user.trustLevel }).from(user).where(eq(user.id, b.id));
    expect(row?.level).toBe(1);
    expect(deal.buyer.id).not.toBe(b.id);
  });

  it("needs verified e-mail and school address for any level", async () => {
    const a = await createTestMember(t, { schoolVerified: false });
    await age(a, 400);
    await setReputation(a, 20, 10, 5);
    expect(await levelOf(a.id)).toBe(0);
  });

  it("Member: 30 days, 3 trades, profile set up, no strike in 90 days", async () => {
    const a = await createTestMember(t);
    await age(a, 30);
    await setReputation(a, 2);
    expect(await levelOf(a.id)).toBe(1);
    await setReputation(a, 3);
    expect(await levelOf(a.id)).toBe(2);
    const strikeId = await strike(a, 89);
    expect(await levelOf(a.id)).toBe(1);
    await t.ctx.db.update(strikes).set({ overruledAt: t.clock.now() }).where(eq(strikes.id, strikeId));
    expect(await levelOf(a.id)).toBe(2);
    await t.ctx.db.update(user).set({ profileSetUp: false }).where(eq(user.id, a.id));
    expect(await levelOf(a.id)).toBe(1);
  });

  it("Regular: 90 days, 10 trades, a rating of 4.5 from 3 reviews, no strike in 365 days", async () => {
    const a = await createTestMember(t);
    await age(a, 90);
    await setReputation(a, 10, 3, 4.4);
    expect(await levelOf(a.id)).toBe(2);
    await setReputation(a, 10, 3, 4.5);
    expect(await levelOf(a.id)).toBe(3);
    await strike(a, 200);
    expect(await levelOf(a.id)).toBe(2);
  });

  it("the statement and the page's words agree", async () => {
    const facts: TrustFacts = {
      verified: true,
      schoolVerified: true,
      profileSetUp: true,
      banned: false,
      ageDays: 95,
      tradesCompleted: 10,
      reviewCount: 3,
      rating: 4.5,
      daysSinceStrike: null,
    };
    expect(levelFromFacts(facts)).toBe(3);
    expect(levelFromFacts({ ...facts, daysSinceStrike: 100 })).toBe(2);
    expect(levelFromFacts({ ...facts, ageDays: 3, tradesCompleted: 0 })).toBe(0);
    const a = await createTestMember(t);
    await age(a, 95);
    await setReputation(a, 10, 3, 4.5);
    const standing = await readTrustStanding(t.ctx.db, t.ctx, a.id);
    expect(standing?.level).toBe(3);
    expect(levelFromFacts(standing?.facts as TrustFacts)).toBe(3);
    // The settings row reads the same level by name.
    expect(await getOwnTrustLevel(t.ctx, a.viewer)).toEqual({ level: 3, name: "Regular" });
  });

  it("is one statement served by indexes (EXPLAIN)", async () => {
    const db = t.ctx.db;
    await db.execute(sql`
      insert into "user" (id, name, email, first_name, last_name, username, campus_id, verified, school_verified)
      select 'trust-user-' || g, 'Trust U.', 'trust-user-' || g || '@example.edu', 'Trust', 'U.', 'trustu' || g, 'ou', true, true
      from generate_series(1, 3000) g`);
    await db.execute(sql`
      insert into reputations (user_id, review_count, rating, trades_completed)
      select 'trust-user-' || g, g % 20, 4.6, g % 12 from generate_series(1, 3000) g`);
    await db.execute(sql`analyze "user"`);
    await db.execute(sql`analyze reputations`);
    await db.execute(sql`analyze strikes`);
    const plan = rowsOf<Record<string, string>>(
      await db.execute(sql`explain ${recountStatement("trust-user-1234", t.clock.now())}`),
    )
      .map((row) => Object.values(row)[0])
      .join("\n");
    expect(plan).not.toMatch(/Seq Scan on "?user"? /);
    expect(plan).not.toMatch(/Seq Scan on reputations/);
    expect(plan).toMatch(/user_pkey/);
    expect(plan).toMatch(/reputations_pkey/);
  });
});

describe("the staff lock", () => {
  it("fixes the level until unlocked, logged with the reason; 404 for a student", async () => {
    const admin = await createSiteAdmin(t);
    const a = await createTestMember(t);
    await setTrustLock(t.ctx, admin.viewer, { studentId: a.id, level: "2", reason: "Known club treasurer" });
    expect(await levelOf(a.id)).toBe(2);
    await age(a, 400);
    expect(await levelOf(a.id)).toBe(2);
    const standing = await readTrustStanding(t.ctx.db, t.ctx, a.id);
    expect(standing?.locked?.byName).toBe("Test S.");
    await setTrustLock(t.ctx, admin.viewer, { studentId: a.id, level: "unlock", reason: "Done" });
    expect(await levelOf(a.id)).toBe(1);
    const log = await t.ctx.db
      .select({ action: moderationLog.action, note: moderationLog.privateNote })
      .from(moderationLog)
      .where(eq(moderationLog.targetUserId, a.id));
    expect(log.map((row) => row.action).sort()).toEqual(["lock_trust_level", "unlock_trust_level"]);
    expect(log.map((row) => row.note)).toContain("Known club treasurer");
    const other = await createTestMember(t);
    await expect(
      setTrustLock(t.ctx, other.viewer, { studentId: a.id, level: "3", reason: "me" }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe("the gates", () => {
  it("a New account's eleventh new conversation in 24 hours is refused with what lifts it", async () => {
    const sender = await createTestMember(t);
    const others: TestMember[] = [];
    for (let i = 0; i < 11; i++) others.push(await createTestMember(t));
    for (const other of others.slice(0, 10)) {
      await startConversation(t.ctx, sender.viewer, { recipientId: other.id, text: "Hi" });
    }
    const eleventh = others[10] as TestMember;
    const refusal = startConversation(t.ctx, sender.viewer, { recipientId: eleventh.id, text: "Hi" });
    await expect(refusal).rejects.toBeInstanceOf(TrustError);
    await expect(refusal).rejects.toMatchObject({
      status: 429,
      message:
        "New accounts can start 10 conversations a day. This lifts after your first completed trade or 7 days.",
    });
    const started = await t.ctx.db
      .select({ id: chats.id })
      .from(chats)
      .where(eq(chats.fromUserId, sender.id));
    expect(started).toHaveLength(10);
    // Writing in a conversation already started is never gated.
    await startConversation(t.ctx, sender.viewer, {
      recipientId: (others[0] as TestMember).id,
      text: "Again",
    });
    // A day later by the clock, it may start one again.
    t.clock.advance(DAY + 1000);
    await startConversation(t.ctx, sender.viewer, { recipientId: eleventh.id, text: "Hi" });
  });

  it("each level's conversation message", () => {
    expect(conversationLimitMessage(1)).toBe(
      "Basic members can start 30 conversations a day. This lifts after 30 days and 3 completed trades, with your profile set up and no strike in 90 days.",
    );
    expect(conversationLimitMessage(3)).toBe(
      "Regular members can start 100 conversations a day. Try again tomorrow.",
    );
  });

  it("a New account's 21st priced listing for sale is refused; Free and wanted posts are not", async () => {
    const seller = await createTestMember(t);
    for (let i = 0; i < 20; i++) {
      await createTestPost(t, seller.viewer, { text: `Lamp ${i}`, listing: { price: "5" } });
    }
    await expect(
      createTestPost(t, seller.viewer, { text: "One more", listing: { price: "5" } }),
    ).rejects.toMatchObject({
      status: 403,
      message: pricedListingLimitMessage(0),
    });
    expect(pricedListingLimitMessage(0)).toBe(
      "New accounts can have 20 priced listings for sale at once. Mark sold or delete one first. This lifts after your first completed trade or 7 days.",
    );
    await createTestPost(t, seller.viewer, { text: "Free chair", listing: { priceTerms: "free" } });
    await createTestPost(t, seller.viewer, {
      text: "Looking for a desk",
      listing: { price: "5", listingKind: "wanted" },
    });
    await age(seller, 7);
    await createTestPost(t, seller.viewer, { text: "Basic now", listing: { price: "5" } });
  });

  it("a New reporter's report weighs half", async () => {
    const a = await createTestMember(t);
    expect(await reporterWeight(t.ctx.db, a.id, t.clock.now())).toBe(0.5);
    await age(a, 7);
    expect(await reporterWeight(t.ctx.db, a.id, t.clock.now())).toBe(1);
  });
});
