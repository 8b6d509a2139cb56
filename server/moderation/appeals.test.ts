import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost } from "../../tests/support/factories";
import { insertStrike } from "../../tests/support/moderation-rows";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { appeals, moderationItems, realtimeEvents } from "../db/schema";
import { grantRole } from "../staff/roles";
import { fileAppeal } from "./appeals";
import { APPEAL_MESSAGES, INDEFINITELY } from "./rules.shared";

// Decision 0545: filing an appeal, every rule on the server.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const WORDS = "I sold this bike myself; the photos are mine and I can show the receipt.";

describe("fileAppeal (decision 0545)", () => {
  it("files one appeal of the student's own strike, with its queue item, and tells the campus's staff", async () => {
    const moderator = await createTestMember(t, { campusId: "ou" });
    await t.ctx.db.transaction((tx) =>
      grantRole(
        tx,
        t.clock.now(),
        moderator.id,
        { role: "campus_moderator", campusId: "ou" },
        { source: "command" },
      ),
    );
    const student = await createTestMember(t, { campusId: "ou" });
    const post = await createTestPost(t, student.viewer, { text: "Blue bike, barely used" });
    const strike = await insertStrike(t, {
      userId: student.id,
      action: "remove",
      targetKind: "post",
      targetId: post.id,
    });
    t.clock.advance(60_000);

    const filed = await fileAppeal(t.ctx, student.viewer, strike.id, `  ${WORDS}  `);
    expect(filed).toMatchObject({ strikeId: strike.id, status: "pending" });

    const [appeal] = await t.ctx.db.select().from(appeals).where(eq(appeals.id, filed.id));
    expect(appeal).toMatchObject({
      campusId: "ou",
      userId: student.id,
      text: WORDS,
      status: "pending",
      createdAt: t.clock.now(),
    });
    const [item] = await t.ctx.db.select().from(moderationItems).where(eq(moderationItems.id, filed.itemId));
    expect(item).toMatchObject({
      campusId: "ou",
      targetKind: "appeal",
      targetId: filed.id,
      targetUserId: student.id,
      state: "open",
      toAdmins: false,
      openedAt: t.clock.now(),
    });
    const events = await t.ctx.db
      .select({ type: realtimeEvents.type })
      .from(realtimeEvents)
      .where(eq(realtimeEvents.userId, moderator.id));
    expect(events.map((event) => event.type)).toContain("staff");
  });

  it("routes the appeal to site admins when the strike's item went to them", async () => {
    const student = await createTestMember(t);
    const strike = await insertStrike(t, { userId: student.id, reasonCode: "scam", toAdmins: true });
    const filed = await fileAppeal(t.ctx, student.viewer, strike.id, WORDS);
    const [item] = await t.ctx.db.select().from(moderationItems).where(eq(moderationItems.id, filed.itemId));
    expect(item?.toAdmins).toBe(true);
  });

  it("takes 30 to 2,000 characters after trimming: 29 and 2,001 are refused under the field", async () => {
    const student = await createTestMember(t);
    const strikes = await Promise.all([1, 2, 3, 4].map(() => insertStrike(t, { userId: student.id })));
    const [a, b, c, d] = strikes.map((strike) => strike.id) as [string, string, string, string];
    await expect(fileAppeal(t.ctx, student.viewer, a, `${"x".repeat(29)}   `)).rejects.toMatchObject({
      code: "invalid-input",
      field: "text",
      status: 400,
      message: APPEAL_MESSAGES.tooShort,
    });
    await expect(fileAppeal(t.ctx, student.viewer, a, "y".repeat(2001))).rejects.toMatchObject({
      field: "text",
      message: "Use at most 2,000 characters.",
    });
    // A browser sends a line break as two characters: it counts as one.
    await expect(
      fileAppeal(t.ctx, student.viewer, b, `${"z".repeat(1000)}\r\n${"z".repeat(999)}`),
    ).resolves.toBeTruthy();
    await expect(fileAppeal(t.ctx, student.viewer, c, "w".repeat(30))).resolves.toBeTruthy();
    await expect(fileAppeal(t.ctx, student.viewer, d, "v".repeat(2000))).resolves.toBeTruthy();
    const stored = await t.ctx.db.select({ text: appeals.text }).from(appeals).where(eq(appeals.strikeId, b));
    expect(stored[0]?.text.length).toBe(2000);
    expect(await t.ctx.db.select().from(appeals).where(eq(appeals.strikeId, a))).toEqual([]);
  });

  it("keeps HTML as the text it is", async () => {
    const student = await createTestMember(t);
    const strike = await insertStrike(t, { userId: student.id });
    const text = "<script>alert('x')</script> <b>I did nothing wrong</b> honestly.";
    const filed = await fileAppeal(t.ctx, student.viewer, strike.id, text);
    const [row] = await t.ctx.db.select({ text: appeals.text }).from(appeals).where(eq(appeals.id, filed.id));
    expect(row?.text).toBe(text);
  });

  it("allows one appeal per strike", async () => {
    const student = await createTestMember(t);
    const strike = await insertStrike(t, { userId: student.id });
    await fileAppeal(t.ctx, student.viewer, strike.id, WORDS);
    await expect(fileAppeal(t.ctx, student.viewer, strike.id, `${WORDS} Again.`)).rejects.toMatchObject({
      code: "already-appealed",
      status: 409,
      message: APPEAL_MESSAGES.alreadyAppealed,
    });
    expect(await t.ctx.db.select().from(appeals).where(eq(appeals.strikeId, strike.id))).toHaveLength(1);
  });

  it("lets one of two appeals sent at once through", async () => {
    const student = await createTestMember(t);
    const strike = await insertStrike(t, { userId: student.id });
    const results = await Promise.allSettled([
      fileAppeal(t.ctx, student.viewer, strike.id, WORDS),
      fileAppeal(t.ctx, student.viewer, strike.id, WORDS),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({
      reason: { code: "already-appealed" },
    });
  });

  it("answers 404 for another student's strike, and for an id that is no strike, changing nothing", async () => {
    const owner = await createTestMember(t);
    const other = await createTestMember(t);
    const strike = await insertStrike(t, { userId: owner.id });
    for (const id of [strike.id, crypto.randomUUID(), "not-a-uuid", ""]) {
      await expect(fileAppeal(t.ctx, other.viewer, id, WORDS)).rejects.toMatchObject({
        code: "not-found",
        status: 404,
        message: APPEAL_MESSAGES.strikeNotFound,
      });
    }
    expect(await t.ctx.db.select().from(appeals).where(eq(appeals.strikeId, strike.id))).toEqual([]);
  });

  it("refuses an overruled strike", async () => {
    const student = await createTestMember(t);
    const strike = await insertStrike(t, { userId: student.id, overruledAt: t.clock.now() });
    await expect(fileAppeal(t.ctx, student.viewer, strike.id, WORDS)).rejects.toMatchObject({
      code: "overruled",
      message: APPEAL_MESSAGES.overruled,
    });
  });

  it("is open for 20 days from the strike by the clock, and closed after", async () => {
    const student = await createTestMember(t);
    const early = await insertStrike(t, { userId: student.id });
    const late = await insertStrike(t, { userId: student.id });
    const start = t.clock.now();
    t.clock.set(new Date(start.getTime() + 20 * DAY - 60_000));
    await expect(fileAppeal(t.ctx, student.viewer, early.id, WORDS)).resolves.toBeTruthy();
    t.clock.set(new Date(start.getTime() + 20 * DAY + 60_000));
    await expect(fileAppeal(t.ctx, student.viewer, late.id, WORDS)).rejects.toMatchObject({
      code: "window-closed",
      status: 409,
      message: "The 20 days to appeal this strike have passed.",
    });
    t.clock.set(start);
  });

  it("lets a suspended (or banned by a moderator) student appeal", async () => {
    const student = await createTestMember(t);
    const strike = await insertStrike(t, { userId: student.id, action: "ban", suspendedUntil: INDEFINITELY });
    await expect(fileAppeal(t.ctx, student.viewer, strike.id, WORDS)).resolves.toMatchObject({
      status: "pending",
    });
  });
});
