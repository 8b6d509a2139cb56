import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  createTestUser,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { campuses, moderationItems, moderationLog, posts, reporterRecords, reports } from "../db/schema";
import { grantRole } from "../staff/roles";
import { fileReport } from "./reports";
import { AUTO_HIDE_PUBLIC_REASON, HIDING_RULES } from "./rules.shared";
import { reportWeight } from "./weights";

// Decision 0662: members here are Basic (7 days), whose reports weigh 1 and whose items hide at the campus's threshold.

// Decision 0542: report weights and the hide before review, on both databases.

let t: TestContext;
let author: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  author = await createTestMember(t, { ageDays: 7, fullName: "Alex Author" });
});
afterAll(() => t.close());

/** Verified students of OU, made one after another (sign-ups at once collide on their usernames). */
async function students(count: number): Promise<TestMember[]> {
  const made: TestMember[] = [];
  for (let n = 0; n < count; n++) made.push(await createTestMember(t, { ageDays: 7 }));
  return made;
}

async function report(reporter: TestMember, targetId: string, targetKind = "post") {
  return fileReport(t.ctx, reporter.viewer, { targetKind, targetId, reason: "scam" });
}

async function stateOf(postId: string) {
  const [post] = await t.ctx.db
    .select({ state: posts.moderationState })
    .from(posts)
    .where(eq(posts.id, postId));
  const [item] = await t.ctx.db.select().from(moderationItems).where(eq(moderationItems.targetId, postId));
  const log = await t.ctx.db.select().from(moderationLog).where(eq(moderationLog.targetId, postId));
  return { state: post?.state ?? null, item, log };
}

async function setRecord(userId: string, record: { upheld: number; dismissed: number; muted?: boolean }) {
  await t.ctx.db
    .insert(reporterRecords)
    .values({ userId, ...record })
    .onConflictDoUpdate({ target: reporterRecords.userId, set: record });
}

async function withThreshold<T>(threshold: number, run: () => Promise<T>): Promise<T> {
  await t.ctx.db.update(campuses).set({ reportHideThreshold: threshold }).where(eq(campuses.id, "ou"));
  try {
    return await run();
  } finally {
    await t.ctx.db
      .update(campuses)
      .set({ reportHideThreshold: HIDING_RULES.defaultThreshold })
      .where(eq(campuses.id, "ou"));
  }
}

describe("a report's weight", () => {
  it("is 1 for a new reporter, 0 when muted, and follows accuracy after 3 decided reports", () => {
    expect(reportWeight(null)).toBe(1);
    expect(reportWeight({ upheld: 2, dismissed: 0, muted: false })).toBe(1);
    expect(reportWeight({ upheld: 0, dismissed: 2, muted: false })).toBe(1);
    expect(reportWeight({ upheld: 3, dismissed: 0, muted: false })).toBeCloseTo(1.4);
    expect(reportWeight({ upheld: 0, dismissed: 3, muted: false })).toBeCloseTo(0.5);
    expect(reportWeight({ upheld: 2, dismissed: 2, muted: false })).toBeCloseTo(0.95);
    expect(reportWeight({ upheld: 9, dismissed: 0, muted: true })).toBe(0);
  });

  it("is stored on the report when it is filed, and the item sums its undecided reports", async () => {
    const [accurate, muted, careless] = await students(3);
    if (!accurate || !muted || !careless) throw new Error("students");
    await setRecord(accurate.id, { upheld: 4, dismissed: 0 });
    await setRecord(muted.id, { upheld: 4, dismissed: 0, muted: true });
    await setRecord(careless.id, { upheld: 1, dismissed: 3 });
    const post = await createTestPost(t, author.viewer);
    await report(muted, post.id);
    await report(careless, post.id);
    const weights = await t.ctx.db
      .select({ reporterId: reports.reporterId, weight: reports.weight })
      .from(reports)
      .where(eq(reports.targetId, post.id));
    expect(weights.find((row) => row.reporterId === muted.id)?.weight).toBe(0);
    expect(weights.find((row) => row.reporterId === careless.id)?.weight).toBeCloseTo(0.725);
    const { item, state } = await stateOf(post.id);
    expect(item?.reporters).toBe(2);
    expect(item?.weight).toBeCloseTo(0.725);
    expect(state).toBeNull();
    // A decided report no longer counts towards the item.
    await t.ctx.db
      .update(reports)
      .set({ outcome: "upheld" })
      .where(and(eq(reports.targetId, post.id), eq(reports.reporterId, careless.id)));
    await report(accurate, post.id);
    const after = await stateOf(post.id);
    expect(after.item?.reporters).toBe(2);
    expect(after.item?.weight).toBeCloseTo(1.4);
  });
});

describe("hiding before review (threshold AND 2 distinct reporters)", () => {
  it("never hides on one student's reports, however heavy", async () => {
    const [accurate] = await students(1);
    if (!accurate) throw new Error("student");
    await setRecord(accurate.id, { upheld: 10, dismissed: 0 });
    const post = await createTestPost(t, author.viewer);
    await withThreshold(1, async () => {
      await report(accurate, post.id);
      await report(accurate, post.id);
    });
    const { state, item, log } = await stateOf(post.id);
    expect(item).toMatchObject({ reporters: 1, hidden: false });
    expect(item?.weight).toBeGreaterThanOrEqual(1);
    expect(state).toBeNull();
    expect(log).toHaveLength(0);
  });

  it("two fresh reporters (weight 1 each) cannot reach 3; the third hides the post, logged as the system's", async () => {
    const [first, second, third, fourth] = await students(4);
    if (!first || !second || !third || !fourth) throw new Error("students");
    const post = await createTestPost(t, author.viewer, { text: "Cheap iPhones, pay first" });
    await report(first, post.id);
    await report(second, post.id);
    expect((await stateOf(post.id)).state).toBeNull();
    expect((await stateOf(post.id)).item).toMatchObject({ reporters: 2, weight: 2, hidden: false });

    await report(third, post.id);
    const { state, item, log } = await stateOf(post.id);
    expect(state).toBe("hidden");
    expect(item).toMatchObject({ reporters: 3, weight: 3, hidden: true, state: "open" });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      campusId: "ou",
      source: "system",
      actorId: null,
      actorRole: null,
      action: "hide",
      targetKind: "post",
      targetId: post.id,
      targetUserId: author.id,
      reasonCode: "scam",
      publicReason: AUTO_HIDE_PUBLIC_REASON,
      details: { itemId: item?.id },
    });
    // A fourth report adds weight; nothing is hidden or logged twice.
    await report(fourth, post.id);
    expect((await stateOf(post.id)).log).toHaveLength(1);
  });

  it("hides a comment the same way", async () => {
    const reporters = await students(3);
    const post = await createTestPost(t, author.viewer);
    const comment = await createTestComment(t, author.viewer, post.id);
    for (const reporter of reporters) await report(reporter, comment.id, "comment");
    expect((await stateOf(comment.id)).state).toBe("hidden");
    expect((await stateOf(post.id)).state).toBeNull();
  });

  it("never hides staff content", async () => {
    const moderator = await createTestMember(t, { ageDays: 7 });
    await t.ctx.db.transaction((tx) =>
      grantRole(
        tx,
        t.clock.now(),
        moderator.id,
        { role: "campus_moderator", campusId: "ut" },
        { source: "command" },
      ),
    );
    const post = await createTestPost(t, moderator.viewer);
    for (const reporter of await students(4)) await report(reporter, post.id);
    const { state, item, log } = await stateOf(post.id);
    expect(item).toMatchObject({ reporters: 4, weight: 4, hidden: false, toAdmins: true });
    expect(state).toBeNull();
    expect(log).toHaveLength(0);
  });

  it("never hides again what a moderator dismissed once", async () => {
    const [first, ...others] = await students(4);
    if (!first) throw new Error("student");
    const post = await createTestPost(t, author.viewer);
    await report(first, post.id);
    await t.ctx.db
      .update(moderationItems)
      .set({ dismissedOnce: true })
      .where(eq(moderationItems.targetId, post.id));
    for (const reporter of others) await report(reporter, post.id);
    const { state, item } = await stateOf(post.id);
    expect(item).toMatchObject({ reporters: 4, hidden: false });
    expect(state).toBeNull();
  });

  it("counts nothing from a flood of unverified accounts: each is refused", async () => {
    const post = await createTestPost(t, author.viewer);
    for (let n = 0; n < 5; n++) {
      const account = await createTestUser(t);
      await expect(
        fileReport(t.ctx, { id: account.id }, { targetKind: "post", targetId: post.id, reason: "scam" }),
      ).rejects.toMatchObject({ code: "verify-email" });
    }
    const { state, item } = await stateOf(post.id);
    expect(item).toBeUndefined();
    expect(state).toBeNull();
  });

  it("makes one item of first reports that arrive at once", async () => {
    const reporters = await students(3);
    const post = await createTestPost(t, author.viewer);
    await Promise.all(reporters.map((reporter) => report(reporter, post.id)));
    const items = await t.ctx.db.select().from(moderationItems).where(eq(moderationItems.targetId, post.id));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ reporters: 3, hidden: true });
    expect((await stateOf(post.id)).log).toHaveLength(1);
  });
});
