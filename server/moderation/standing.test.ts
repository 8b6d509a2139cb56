import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestComment, createTestMember, createTestPost } from "../../tests/support/factories";
import { insertStrike } from "../../tests/support/moderation-rows";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { appeals, posts } from "../db/schema";
import { fileAppeal } from "./appeals";
import { INDEFINITELY } from "./rules.shared";
import { getStanding } from "./standing";

// Decision 0548: what /settings/account/standing reads.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;

describe("getStanding (decision 0548)", () => {
  it("is empty for a student in good standing", async () => {
    const student = await createTestMember(t);
    await createTestPost(t, student.viewer, { text: "Desk lamp, works fine" });
    expect(await getStanding(t.ctx, student.viewer)).toEqual({ restriction: null, strikes: [], removed: [] });
  });

  it("lists the student's strikes newest first with what they concerned, and their removed items", async () => {
    const student = await createTestMember(t);
    const someoneElse = await createTestMember(t);
    await insertStrike(t, { userId: someoneElse.id, publicReason: "Not yours to see." });
    const post = await createTestPost(t, student.viewer, { text: "Blue bike, barely used, $40 firm" });
    const comment = await createTestComment(t, student.viewer, post.id, { text: "Still here, DM me" });
    const first = await insertStrike(t, {
      userId: student.id,
      action: "remove",
      targetKind: "post",
      targetId: post.id,
      reasonCode: "prohibited",
      publicReason: "Bikes without a frame number may be stolen.",
    });
    t.clock.advance(60_000);
    const second = await insertStrike(t, {
      userId: student.id,
      action: "warn",
      targetKind: "comment",
      targetId: comment.id,
      reasonCode: "harassment",
      publicReason: "Be kind in the comments.",
      overruledAt: t.clock.now(),
    });

    const standing = await getStanding(t.ctx, student.viewer);
    expect(standing.restriction).toBeNull();
    expect(standing.strikes).toEqual([
      {
        id: second.id,
        action: "warn",
        createdAt: t.clock.now(),
        reasonLabel: "Harassment or hate",
        publicReason: "Be kind in the comments.",
        target: { kind: "comment", excerpt: "Still here, DM me" },
        overruledAt: t.clock.now(),
        appeal: null,
        appealUntil: null,
      },
      expect.objectContaining({
        id: first.id,
        action: "remove",
        reasonLabel: "Prohibited item",
        publicReason: "Bikes without a frame number may be stolen.",
        target: { kind: "post", excerpt: "Blue bike, barely used, $40 firm" },
        overruledAt: null,
        appeal: null,
        appealUntil: new Date(t.clock.now().getTime() - 60_000 + 20 * DAY),
      }),
    ]);
    expect(standing.removed).toEqual([
      { id: post.id, kind: "post", excerpt: "Blue bike, barely used, $40 firm", createdAt: expect.any(Date) },
    ]);
  });

  it("shows a removed comment as a comment, with a short excerpt", async () => {
    const student = await createTestMember(t);
    const post = await createTestPost(t, student.viewer);
    const long = `${"word ".repeat(40)}end`;
    const comment = await createTestComment(t, student.viewer, post.id, { text: long });
    await t.ctx.db.update(posts).set({ moderationState: "removed" }).where(eq(posts.id, comment.id));
    // A hidden post (waiting for a moderator) is not removed.
    await t.ctx.db.update(posts).set({ moderationState: "hidden" }).where(eq(posts.id, post.id));
    const { removed } = await getStanding(t.ctx, student.viewer);
    expect(removed).toHaveLength(1);
    expect(removed[0]?.kind).toBe("comment");
    expect(removed[0]?.excerpt.length).toBeLessThanOrEqual(100);
    expect(removed[0]?.excerpt.endsWith("…")).toBe(true);
  });

  it("shows a suspension until its end by the clock, then nothing", async () => {
    const student = await createTestMember(t);
    const start = t.clock.now();
    const until = new Date(start.getTime() + 3 * DAY);
    await insertStrike(t, {
      userId: student.id,
      action: "suspend",
      reasonCode: "scam",
      publicReason: "Asked for payment by gift card.",
      suspendedUntil: until,
    });
    expect((await getStanding(t.ctx, student.viewer)).restriction).toEqual({
      until,
      indefinite: false,
      reasonLabel: "Scam or fraud",
      publicReason: "Asked for payment by gift card.",
    });
    t.clock.set(new Date(until.getTime() + 1));
    const after = await getStanding(t.ctx, student.viewer);
    expect(after.restriction).toBeNull();
    expect(after.strikes).toHaveLength(1);
    t.clock.set(start);
  });

  it("shows a ban or a suspension until lifted as indefinite", async () => {
    const student = await createTestMember(t);
    await insertStrike(t, { userId: student.id, action: "ban", suspendedUntil: INDEFINITELY });
    expect((await getStanding(t.ctx, student.viewer)).restriction).toMatchObject({
      until: INDEFINITELY,
      indefinite: true,
    });
  });

  it("shows each strike's appeal and its status, and closes the form after 20 days", async () => {
    const student = await createTestMember(t);
    const start = t.clock.now();
    const appealed = await insertStrike(t, { userId: student.id });
    const rejected = await insertStrike(t, { userId: student.id });
    const words = "I was not the seller in that chat, it was my roommate.";
    await fileAppeal(t.ctx, student.viewer, appealed.id, words);
    const filed = await fileAppeal(t.ctx, student.viewer, rejected.id, words);
    await t.ctx.db
      .update(appeals)
      .set({ status: "rejected", decisionReason: "The chat shows you sold it.", decidedAt: start })
      .where(eq(appeals.id, filed.id));
    const open = await insertStrike(t, { userId: student.id });

    const byId = async () =>
      new Map((await getStanding(t.ctx, student.viewer)).strikes.map((s) => [s.id, s]));
    let strikes = await byId();
    expect(strikes.get(appealed.id)).toMatchObject({
      appeal: { status: "pending", decisionReason: null },
      appealUntil: null,
    });
    expect(strikes.get(rejected.id)).toMatchObject({
      appeal: { status: "rejected", decisionReason: "The chat shows you sold it." },
    });
    expect(strikes.get(open.id)?.appealUntil).toEqual(new Date(start.getTime() + 20 * DAY));

    t.clock.set(new Date(start.getTime() + 20 * DAY + 1));
    strikes = await byId();
    expect(strikes.get(open.id)?.appealUntil).toBeNull();
    t.clock.set(start);
  });
});
