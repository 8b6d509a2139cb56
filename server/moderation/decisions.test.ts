import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import {
  createModerator,
  createSiteAdmin,
  decisionInput,
  openTestItem,
} from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import {
  bannedEmails,
  mailOutbox,
  moderationItems,
  moderationLog,
  notifications,
  posts,
  realtimeEvents,
  reporterRecords,
  reports,
  strikes,
  user,
} from "../db/schema";
import { listNotifications } from "../notifications/notifications";
import { decideItem } from "./decisions";
import { INDEFINITELY } from "./rules.shared";

// Decisions 0541, 0543, 0544: each decision's effects, its scope, and the version check.
let t: TestContext;
let moderator: TestMember;
let otherModerator: TestMember;
let utModerator: TestMember;
let admin: TestMember;
let reporters: TestMember[];

beforeAll(async () => {
  t = await createTestContext();
  moderator = await createModerator(t, "ou", { fullName: "Marcus Reed" });
  otherModerator = await createModerator(t, "ou", { fullName: "Nadia Volkov" });
  utModerator = await createModerator(t, "ut");
  admin = await createSiteAdmin(t);
  reporters = [await createTestMember(t), await createTestMember(t)];
});
afterAll(() => t.close());

async function reportedPost(options: { hidden?: boolean } = {}) {
  const author = await createTestMember(t);
  const post = await createTestPost(t, author.viewer, { text: "Cheap iPhone, pay by gift card" });
  const item = await openTestItem(t, {
    campusId: "ou",
    targetKind: "post",
    targetId: post.id,
    targetUserId: author.id,
    hidden: options.hidden,
    reports: reporters.map((reporter) => ({ reporter, reason: "spam" as const })),
  });
  return { author, post, item };
}

const itemRow = async (id: string) =>
  (await t.ctx.db.select().from(moderationItems).where(eq(moderationItems.id, id)))[0];
const postState = async (id: string) =>
  (await t.ctx.db.select({ state: posts.moderationState }).from(posts).where(eq(posts.id, id)))[0]?.state;
const outcomes = async (itemId: string) =>
  (await t.ctx.db.select({ outcome: reports.outcome }).from(reports).where(eq(reports.itemId, itemId))).map(
    (row) => row.outcome,
  );
const recordOf = async (userId: string) =>
  (await t.ctx.db.select().from(reporterRecords).where(eq(reporterRecords.userId, userId)))[0] ?? {
    upheld: 0,
    dismissed: 0,
  };
const logOf = (itemId: string) =>
  t.ctx.db.select().from(moderationLog).where(eq(moderationLog.targetId, itemId));
const mailTo = (email: string) =>
  t.ctx.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, "moderation")));

describe("deciding an item (decision 0543)", () => {
  it("Remove: the content is removed, a strike, the reports upheld, the log row, the notice and the e-mail", async () => {
    const { author, post, item } = await reportedPost();
    const before = await recordOf(reporters[0]?.id as string);
    await decideItem(
      t.ctx,
      moderator.viewer,
      decisionInput(item, "remove", { privateNote: "Third one this week" }),
    );
    expect(await postState(post.id)).toBe("removed");
    expect(await itemRow(item.id)).toMatchObject({
      state: "decided",
      decision: "remove",
      decidedBy: moderator.id,
      version: item.version + 1,
    });
    expect(await outcomes(item.id)).toEqual(["upheld", "upheld"]);
    expect((await recordOf(reporters[0]?.id as string)).upheld).toBe(before.upheld + 1);
    const [strike] = await t.ctx.db.select().from(strikes).where(eq(strikes.itemId, item.id));
    expect(strike).toMatchObject({
      action: "remove",
      userId: author.id,
      targetKind: "post",
      targetId: post.id,
    });
    const [log] = await logOf(post.id);
    expect(log).toMatchObject({
      source: "staff",
      actorId: moderator.id,
      actorRole: "campus_moderator",
      action: "remove",
      targetKind: "post",
      targetUserId: author.id,
      reasonCode: "spam",
      publicReason: "Repeated spam listings.",
      privateNote: "Third one this week",
      campusId: "ou",
      details: { itemId: item.id, strikeId: strike?.id },
    });
    const page = await listNotifications(t.ctx, author.viewer);
    expect(page.items[0]).toMatchObject({
      type: "moderation",
      actors: [],
      text: "Moderators removed your listing. Reason: \u201cRepeated spam listings.\u201d",
      href: "/settings/account/standing",
    });
    expect(JSON.stringify(page.items[0])).not.toContain("Marcus");
    const [mail] = await mailTo(author.email);
    expect(mail?.subject).toBe("Moderators removed your listing.");
    expect(mail?.text).toContain("Repeated spam listings.");
    expect(mail?.text).toMatch(/https?:\/\/[^\s]+\/settings\/account\/standing/);
    expect(mail?.text).not.toContain("Marcus");
    const events = await t.ctx.db
      .select({ type: realtimeEvents.type })
      .from(realtimeEvents)
      .where(eq(realtimeEvents.userId, author.id));
    expect(events).toContainEqual({ type: "notification" });
  });

  it("Dismiss: a hidden post is shown again, dismissed once, the reports dismissed and the reporters' records counted", async () => {
    const { author, post, item } = await reportedPost({ hidden: true });
    const before = await recordOf(reporters[1]?.id as string);
    await decideItem(t.ctx, moderator.viewer, decisionInput(item, "dismiss", { publicReason: "Not spam." }));
    expect(await postState(post.id)).toBeNull();
    expect(await itemRow(item.id)).toMatchObject({ dismissedOnce: true, hidden: false, decision: "dismiss" });
    expect(await outcomes(item.id)).toEqual(["dismissed", "dismissed"]);
    expect((await recordOf(reporters[1]?.id as string)).dismissed).toBe(before.dismissed + 1);
    expect(await t.ctx.db.select().from(strikes).where(eq(strikes.itemId, item.id))).toEqual([]);
    expect((await listNotifications(t.ctx, author.viewer)).items[0]?.text).toBe(
      "Moderators reviewed the reports about your listing and kept it up. Reason: \u201cNot spam.\u201d",
    );
  });

  it("Warn gives a strike and no restriction; Suspend for 3 days sets the end and removes the content", async () => {
    const warned = await reportedPost();
    await decideItem(t.ctx, moderator.viewer, decisionInput(warned.item, "warn"));
    expect(await postState(warned.post.id)).toBeNull();
    const [strike] = await t.ctx.db.select().from(strikes).where(eq(strikes.itemId, warned.item.id));
    expect(strike).toMatchObject({ action: "warn", suspendedUntil: null });

    const suspended = await reportedPost();
    await decideItem(t.ctx, moderator.viewer, decisionInput(suspended.item, "suspend", { days: "3" }));
    const until = new Date(t.clock.now().getTime() + 3 * 24 * 60 * 60 * 1000);
    expect(await postState(suspended.post.id)).toBe("removed");
    const [row] = await t.ctx.db.select().from(user).where(eq(user.id, suspended.author.id));
    expect(row?.suspendedUntil).toEqual(until);
    const [log] = await logOf(suspended.post.id);
    expect(log?.details).toMatchObject({ days: 3, suspendedUntil: until.toISOString() });
    const notice = (await listNotifications(t.ctx, suspended.author.viewer)).items[0];
    expect(notice?.text).toContain("Moderators suspended your account until ");
    const [mail] = await mailTo(suspended.author.email);
    expect(mail?.text).toContain("UTC");
  });

  it("Ban suspends indefinitely and stores the lower-cased sign-in address", async () => {
    const { author, item } = await reportedPost();
    await decideItem(t.ctx, admin.viewer, decisionInput(item, "ban"));
    const [row] = await t.ctx.db.select().from(user).where(eq(user.id, author.id));
    expect(row?.suspendedUntil).toEqual(INDEFINITELY);
    expect(row?.banned).toBe(false);
    expect(
      await t.ctx.db.select().from(bannedEmails).where(eq(bannedEmails.userId, author.id)),
    ).toMatchObject([{ email: author.email.toLowerCase() }]);
    const [log] = await logOf(item.targetId);
    expect(log?.actorRole).toBe("site_admin");
  });

  it("refuses a decision the item does not allow, and requires a public reason of at most 500 characters", async () => {
    const member = await createTestMember(t);
    const item = await openTestItem(t, {
      campusId: "ou",
      targetKind: "user",
      targetId: member.id,
      targetUserId: member.id,
      reports: [{ reporter: reporters[0] as TestMember }],
    });
    await expect(decideItem(t.ctx, moderator.viewer, decisionInput(item, "remove"))).rejects.toMatchObject({
      code: "not-applicable",
    });
    await expect(
      decideItem(t.ctx, moderator.viewer, decisionInput(item, "warn", { publicReason: "  " })),
    ).rejects.toMatchObject({ field: "publicReason", message: "Write the reason the student will read." });
    await expect(
      decideItem(t.ctx, moderator.viewer, decisionInput(item, "warn", { publicReason: "x".repeat(501) })),
    ).rejects.toMatchObject({ field: "publicReason" });
    await expect(decideItem(t.ctx, moderator.viewer, decisionInput(item, "suspend"))).rejects.toMatchObject({
      field: "days",
    });
    // HTML is text: stored as typed.
    await decideItem(
      t.ctx,
      moderator.viewer,
      decisionInput(item, "warn", { publicReason: "<b>Be kind</b>" }),
    );
    const [log] = await logOf(member.id);
    expect(log?.publicReason).toBe("<b>Be kind</b>");
  });

  it("answers not-found to a moderator of another campus and to students, and applies nothing", async () => {
    const { post, item } = await reportedPost();
    const student = await createTestMember(t);
    for (const viewer of [utModerator.viewer, student.viewer, null]) {
      await expect(decideItem(t.ctx, viewer, decisionInput(item, "remove"))).rejects.toMatchObject({
        status: 404,
      });
    }
    expect(await postState(post.id)).toBeNull();
    expect(await itemRow(item.id)).toMatchObject({ state: "open", version: item.version });
  });
});

describe("the version check (decision 0541)", () => {
  it("of two decisions at once exactly one applies; the other is told who handled it", async () => {
    const { post, item } = await reportedPost();
    const results = await Promise.allSettled([
      decideItem(t.ctx, moderator.viewer, decisionInput(item, "remove")),
      decideItem(t.ctx, otherModerator.viewer, decisionInput(item, "dismiss")),
    ]);
    const applied = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result) => result.status === "rejected");
    expect(applied).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const decided = await itemRow(item.id);
    const winner = decided?.decidedBy === moderator.id ? "Marcus R." : "Nadia V.";
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: "already-handled",
      status: 409,
      message: `Already handled by ${winner}`,
    });
    // Nothing twice: one log row, at most one strike, the reports decided once.
    expect(await logOf(post.id)).toHaveLength(1);
    expect(
      (await t.ctx.db.select().from(strikes).where(eq(strikes.itemId, item.id))).length,
    ).toBeLessThanOrEqual(1);
    const count = await t.ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, decided?.targetUserId as string));
    expect(count.length).toBeLessThanOrEqual(1);
  });

  it("a decision made on an older version of an item that is still open asks to look again", async () => {
    const { item } = await reportedPost();
    await t.ctx.db
      .update(moderationItems)
      .set({ version: item.version + 1 })
      .where(eq(moderationItems.id, item.id));
    await expect(decideItem(t.ctx, moderator.viewer, decisionInput(item, "remove"))).rejects.toMatchObject({
      code: "item-changed",
      status: 409,
    });
  });
});
