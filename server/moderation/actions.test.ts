import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestMember,
  createTestPost,
  createTestUser,
  type TestMember,
  viewerOf,
} from "../../tests/support/factories";
import {
  createModerator,
  createSiteAdmin,
  decisionInput,
  openTestAppeal,
  openTestItem,
} from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { boostPost } from "../ads/boost";
import { payTestCheckout } from "../ads/fulfilment";
import { resumeAd } from "../ads/lifecycle";
import { ads, appeals, bannedEmails, moderationLog, posts, strikes, user } from "../db/schema";
import { listNotifications } from "../notifications/notifications";
import { decideAppeal } from "./appeal-decisions";
import { decideItem } from "./decisions";
import { getModerationItem } from "./item-view";
import { liftItemSuspension, restoreItemContent, sendNoteToStudent } from "./staff-actions";

// Decisions 0543, 0544: suspensions end by the clock, bans refuse sign-up, Restore, Lift, notes, appeals.
let t: TestContext;
let moderator: TestMember;
let utModerator: TestMember;
let admin: TestMember;
let reporter: TestMember;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestContext();
  moderator = await createModerator(t, "ou", { fullName: "Marcus Reed" });
  utModerator = await createModerator(t, "ut");
  admin = await createSiteAdmin(t);
  reporter = await createTestMember(t);
});
afterAll(() => t.close());

async function reportedPost() {
  const author = await createTestMember(t);
  const post = await createTestPost(t, author.viewer, { text: "Concert tickets" });
  const item = await openTestItem(t, {
    campusId: "ou",
    targetKind: "post",
    targetId: post.id,
    targetUserId: author.id,
    reports: [{ reporter, reason: "scam" }],
  });
  return { author, post, item };
}

const suspendedNow = async (userId: string) => {
  const viewer = await viewerOf(t, userId);
  return viewer.suspendedUntil !== null && viewer.suspendedUntil > t.clock.now();
};
const postState = async (id: string) =>
  (await t.ctx.db.select({ state: posts.moderationState }).from(posts).where(eq(posts.id, id)))[0]?.state;
const reason = { reasonCode: "scam" as const, publicReason: "Restored after review." };

describe("suspensions and bans (decision 0543)", () => {
  it("a 1-day suspension holds until its end and not after, read against the clock, with no job", async () => {
    const { author, item } = await reportedPost();
    await decideItem(t.ctx, moderator.viewer, decisionInput(item, "suspend", { days: "1" }));
    expect(await suspendedNow(author.id)).toBe(true);
    t.clock.advance(DAY - 60_000);
    expect(await suspendedNow(author.id)).toBe(true);
    t.clock.advance(2 * 60_000);
    expect(await suspendedNow(author.id)).toBe(false);
  });

  it("a suspension pauses the student's running ad; Resume is refused until it ends, then pushes the end out", async () => {
    const { author, post, item } = await reportedPost();
    const { adId } = await boostPost(
      t.ctx,
      author.viewer,
      { postId: post.id, campusId: "ou" },
      { goal: "message", days: "5" },
      "http://ou.localhost:3000",
    );
    const adOf = async () => (await t.ctx.db.select().from(ads).where(eq(ads.id, adId)))[0];
    await payTestCheckout(t.ctx, author.viewer, {
      sessionId: (await adOf())?.checkoutSessionId ?? "",
      card: "4242424242424242",
    });
    const endBefore = (await adOf())?.endTimeAdjusted?.getTime() ?? 0;
    await decideItem(t.ctx, moderator.viewer, decisionInput(item, "suspend", { days: "1" }));
    expect(await adOf()).toMatchObject({ status: "paused" });
    const suspended = await viewerOf(t, author.id);
    await expect(resumeAd(t.ctx, suspended, adId)).rejects.toMatchObject({ code: "suspended" });
    t.clock.advance(DAY + 60_000);
    await resumeAd(t.ctx, await viewerOf(t, author.id), adId);
    const resumed = await adOf();
    expect(resumed?.status).toBe("active");
    expect(resumed?.endTimeAdjusted?.getTime()).toBe(endBefore + DAY + 60_000);
  });

  it("a ban refuses a new sign-up with the banned address, in any letter case", async () => {
    const { author, item } = await reportedPost();
    await decideItem(t.ctx, moderator.viewer, decisionInput(item, "ban"));
    // The account keeps signing in (not `banned`); its address is refused to a new account.
    await t.ctx.db.delete(user).where(eq(user.id, author.id));
    await expect(createTestUser(t, { email: author.email.toUpperCase() })).rejects.toMatchObject({
      code: "banned",
      message: "Account has been banned",
    });
  });

  it("Lift suspension ends it at once and frees a banned address; Restore brings removed content back", async () => {
    const { author, post, item } = await reportedPost();
    await decideItem(t.ctx, moderator.viewer, decisionInput(item, "ban"));
    expect(await postState(post.id)).toBe("removed");
    const view = await getModerationItem(t.ctx, moderator.viewer, item.id);
    expect(view.actions).toMatchObject({ decide: [], restore: true, lift: true, note: true });
    t.clock.advance(1000);
    await restoreItemContent(t.ctx, moderator.viewer, { itemId: item.id, ...reason });
    expect(await postState(post.id)).toBeNull();
    await expect(
      restoreItemContent(t.ctx, moderator.viewer, { itemId: item.id, ...reason }),
    ).rejects.toMatchObject({ message: "This content is not removed." });
    t.clock.advance(1000);
    await liftItemSuspension(t.ctx, moderator.viewer, { itemId: item.id, ...reason });
    expect(await suspendedNow(author.id)).toBe(false);
    expect(await t.ctx.db.select().from(bannedEmails).where(eq(bannedEmails.userId, author.id))).toEqual([]);
    const texts = (await listNotifications(t.ctx, author.viewer)).items.map((notice) => notice.text);
    expect(texts.slice(0, 3)).toEqual([
      "Moderators lifted your suspension. Reason: \u201cRestored after review.\u201d",
      "Moderators restored your listing. Reason: \u201cRestored after review.\u201d",
      "Moderators banned your account. Reason: \u201cRepeated spam listings.\u201d",
    ]);
  });

  it("suspending a member and lifting it tell every process the campus's cached pages changed", async () => {
    const told: (string | null)[] = [];
    await t.ctx.realtime.watchCampusPages((campusId) => told.push(campusId));
    const member = await createTestMember(t);
    const item = await openTestItem(t, {
      campusId: "ou",
      targetKind: "user",
      targetId: member.id,
      targetUserId: member.id,
      reports: [{ reporter, reason: "harassment" }],
    });
    const until = async (count: number) => {
      for (let wait = 0; told.length < count && wait < 100; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // Decision 0546: no content of theirs is removed, yet their listings leave every list.
    await decideItem(t.ctx, moderator.viewer, decisionInput(item, "suspend", { days: "3" }));
    await until(1);
    expect(told).toEqual(["ou"]);
    await liftItemSuspension(t.ctx, moderator.viewer, { itemId: item.id, ...reason });
    await until(2);
    expect(told).toEqual(["ou", "ou"]);
  });

  it("a note is not a strike, and is logged as a private 'note'", async () => {
    const { author, item } = await reportedPost();
    await sendNoteToStudent(t.ctx, moderator.viewer, {
      itemId: item.id,
      note: "Please add real photos next time.",
    });
    expect(await t.ctx.db.select().from(strikes).where(eq(strikes.userId, author.id))).toEqual([]);
    const [log] = await t.ctx.db
      .select()
      .from(moderationLog)
      .where(eq(moderationLog.targetUserId, author.id));
    expect(log).toMatchObject({ action: "note", publicReason: "Please add real photos next time." });
    expect((await listNotifications(t.ctx, author.viewer)).items[0]?.text).toBe(
      "A note from the moderators. \u201cPlease add real photos next time.\u201d",
    );
    await expect(
      sendNoteToStudent(t.ctx, moderator.viewer, { itemId: item.id, note: "" }),
    ).rejects.toMatchObject({
      field: "note",
    });
  });

  it("Restore, Lift and notes answer not-found out of scope", async () => {
    const { item } = await reportedPost();
    const student = await createTestMember(t);
    for (const viewer of [utModerator.viewer, student.viewer]) {
      await expect(restoreItemContent(t.ctx, viewer, { itemId: item.id, ...reason })).rejects.toMatchObject({
        status: 404,
      });
      await expect(liftItemSuspension(t.ctx, viewer, { itemId: item.id, ...reason })).rejects.toMatchObject({
        status: 404,
      });
      await expect(sendNoteToStudent(t.ctx, viewer, { itemId: item.id, note: "Hi" })).rejects.toMatchObject({
        status: 404,
      });
    }
  });
});

describe("appeal decisions (decision 0544)", () => {
  async function suspendedAndAppealed() {
    const reported = await reportedPost();
    await decideItem(t.ctx, moderator.viewer, decisionInput(reported.item, "suspend", { days: "7" }));
    const [strike] = await t.ctx.db.select().from(strikes).where(eq(strikes.itemId, reported.item.id));
    if (!strike) throw new Error("no strike");
    t.clock.advance(1000);
    const appealed = await openTestAppeal(t, strike.id);
    return { ...reported, strike, ...appealed };
  }
  const appealInput = (item: { id: string; version: number }, decision: "approve" | "reject") => ({
    itemId: item.id,
    version: item.version,
    decision,
    publicReason: decision === "approve" ? "The buyer confirmed the sale." : "The evidence stands.",
  });

  it("the strike's actor may not decide its appeal; another staff member approves it and everything is undone", async () => {
    const { author, post, strike, appeal, item } = await suspendedAndAppealed();
    const asActor = await getModerationItem(t.ctx, moderator.viewer, item.id);
    expect(asActor.appeal).toMatchObject({ mayDecide: false, text: appeal.text });
    await expect(decideAppeal(t.ctx, moderator.viewer, appealInput(item, "approve"))).rejects.toMatchObject({
      code: "own-decision",
      status: 403,
    });
    await expect(decideAppeal(t.ctx, utModerator.viewer, appealInput(item, "approve"))).rejects.toMatchObject(
      {
        status: 404,
      },
    );
    expect((await getModerationItem(t.ctx, admin.viewer, item.id)).appeal?.mayDecide).toBe(true);
    await decideAppeal(t.ctx, admin.viewer, appealInput(item, "approve"));
    const [overruled] = await t.ctx.db.select().from(strikes).where(eq(strikes.id, strike.id));
    expect(overruled?.overruledAt).toEqual(t.clock.now());
    expect(await postState(post.id)).toBeNull();
    expect(await suspendedNow(author.id)).toBe(false);
    const [stored] = await t.ctx.db.select().from(appeals).where(eq(appeals.id, appeal.id));
    expect(stored).toMatchObject({ status: "approved", decidedBy: admin.id });
    const [log] = await t.ctx.db
      .select()
      .from(moderationLog)
      .where(eq(moderationLog.action, "approve_appeal"));
    expect(log).toMatchObject({ targetKind: "post", targetId: post.id, details: { strikeId: strike.id } });
    expect((await listNotifications(t.ctx, author.viewer)).items[0]?.text).toBe(
      "Your appeal was approved: the strike is overruled. Reason: \u201cThe buyer confirmed the sale.\u201d",
    );
  });

  it("approving keeps a suspension another live strike still holds", async () => {
    const first = await suspendedAndAppealed();
    const second = await openTestItem(t, {
      campusId: "ou",
      targetKind: "user",
      targetId: first.author.id,
      targetUserId: first.author.id,
      reports: [{ reporter }],
    });
    await decideItem(t.ctx, moderator.viewer, decisionInput(second, "suspend", { days: "30" }));
    await decideAppeal(t.ctx, admin.viewer, appealInput(first.item, "approve"));
    const [row] = await t.ctx.db.select().from(user).where(eq(user.id, first.author.id));
    expect(row?.suspendedUntil).toEqual(new Date(t.clock.now().getTime() + 30 * DAY));
  });

  it("rejecting tells the student the reason and leaves the strike and the suspension", async () => {
    const { author, strike, item } = await suspendedAndAppealed();
    await decideAppeal(t.ctx, admin.viewer, appealInput(item, "reject"));
    const [kept] = await t.ctx.db.select().from(strikes).where(eq(strikes.id, strike.id));
    expect(kept?.overruledAt).toBeNull();
    expect(await suspendedNow(author.id)).toBe(true);
    expect((await listNotifications(t.ctx, author.viewer)).items[0]?.text).toBe(
      "Your appeal was rejected. Reason: \u201cThe evidence stands.\u201d",
    );
    await expect(decideAppeal(t.ctx, admin.viewer, appealInput(item, "approve"))).rejects.toMatchObject({
      code: "already-handled",
    });
  });
});
