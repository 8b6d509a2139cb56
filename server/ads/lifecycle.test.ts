import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ads, checkoutSessions, mailOutbox, payments } from "../db/schema";
import { deletePost } from "../posts/posts";
import { boostPost, cancelCheckout } from "./boost";
import { AD_MESSAGES } from "./errors.shared";
import { payTestCheckout } from "./fulfilment";
import { pauseAd, renameAd, resumeAd, stopAd } from "./lifecycle";
import { listPayments } from "./payments-activity";
import { DAY_MS } from "./refunds";
import { formatTimeLeft } from "./schemas.shared";
import { ownerBoostButton } from "./sponsored.shared";
import { getOwnAd, getPostAdState } from "./views";
import { runAdsRound } from "./worker";

let t: TestContext;
let owner: TestMember;
let postId: string;
const ORIGIN = "http://ou.localhost:3000";

beforeEach(async () => {
  t = await createTestContext();
  owner = await createTestMember(t);
  postId = (await createTestPost(t, owner.viewer, { text: "Desk lamp, $15" })).id;
});
afterEach(async () => {
  await t.close();
});

const ref = () => ({ postId, campusId: "ou" });
const websiteForm = (extra: Record<string, unknown> = {}) => ({
  goal: "website",
  websiteUrl: "https://www.example.com",
  buttonLabel: "Shop Now",
  title: "Lamp sale",
  days: "4",
  ...extra,
});

async function boost(extra: Record<string, unknown> = {}) {
  return boostPost(t.ctx, owner.viewer, ref(), websiteForm(extra), ORIGIN);
}

async function sessionOf(adId: string): Promise<string> {
  const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
  if (!ad?.checkoutSessionId) throw new Error("no session");
  return ad.checkoutSessionId;
}

/** Boosts and pays through the test checkout (the signed event through the webhook handler). */
async function runningAd(extra: Record<string, unknown> = {}): Promise<string> {
  const { adId } = await boost(extra);
  await payTestCheckout(t.ctx, owner.viewer, {
    sessionId: await sessionOf(adId),
    card: "4242 4242 4242 4242",
  });
  return adId;
}

async function adRow(adId: string) {
  const [ad] = await t.ctx.db.select().from(ads).where(eq(ads.id, adId));
  return ad;
}

describe("the ad state machine (spec 2 §4)", () => {
  it("refuses every illegal transition with the spec's message", async () => {
    const { adId: unpaid } = await boost();
    await expect(pauseAd(t.ctx, owner.viewer, unpaid)).rejects.toMatchObject({
      message: AD_MESSAGES.onlyActiveCanPause,
    });
    await expect(resumeAd(t.ctx, owner.viewer, unpaid)).rejects.toMatchObject({
      message: AD_MESSAGES.onlyPausedCanResume,
    });
    await expect(stopAd(t.ctx, owner.viewer, unpaid)).rejects.toMatchObject({
      message: AD_MESSAGES.failedToStop,
    });
    await cancelCheckout(t.ctx, owner.viewer, { postId, sessionId: null });

    const adId = await runningAd();
    await expect(resumeAd(t.ctx, owner.viewer, adId)).rejects.toMatchObject({
      message: AD_MESSAGES.onlyPausedCanResume,
    });
    await pauseAd(t.ctx, owner.viewer, adId);
    await expect(pauseAd(t.ctx, owner.viewer, adId)).rejects.toMatchObject({
      message: AD_MESSAGES.onlyActiveCanPause,
    });
    await stopAd(t.ctx, owner.viewer, adId);
    await expect(stopAd(t.ctx, owner.viewer, adId)).rejects.toMatchObject({
      message: AD_MESSAGES.alreadyStopped,
    });
    await expect(pauseAd(t.ctx, owner.viewer, adId)).rejects.toMatchObject({
      message: AD_MESSAGES.onlyActiveCanPause,
    });
    await expect(resumeAd(t.ctx, owner.viewer, adId)).rejects.toMatchObject({
      message: AD_MESSAGES.onlyPausedCanResume,
    });
  });

  it("refuses completed ads and anyone else's ad ('Ad not found')", async () => {
    const adId = await runningAd();
    const other = await createTestMember(t);
    for (const act of [pauseAd, resumeAd, stopAd]) {
      await expect(act(t.ctx, other.viewer, adId)).rejects.toMatchObject({
        message: AD_MESSAGES.adNotFound,
        status: 404,
      });
    }
    await expect(pauseAd(t.ctx, owner.viewer, "not-a-uuid")).rejects.toMatchObject({
      message: AD_MESSAGES.adNotFound,
    });
    t.clock.advance(4 * DAY_MS + 1);
    await expect(pauseAd(t.ctx, owner.viewer, adId)).rejects.toMatchObject({
      message: AD_MESSAGES.onlyActiveCanPause,
    });
    expect((await adRow(adId))?.status).toBe("completed");
    await expect(stopAd(t.ctx, owner.viewer, adId)).rejects.toMatchObject({
      message: AD_MESSAGES.alreadyStopped,
    });
    await expect(resumeAd(t.ctx, owner.viewer, adId)).rejects.toMatchObject({
      message: AD_MESSAGES.onlyPausedCanResume,
    });
  });

  it("resume pushes the end out by the pause length and adds it to time_paused", async () => {
    const adId = await runningAd();
    const start = t.clock.now().getTime();
    t.clock.advance(DAY_MS);
    await pauseAd(t.ctx, owner.viewer, adId);
    expect((await adRow(adId))?.pausedAt?.getTime()).toBe(start + DAY_MS);
    t.clock.advance(2 * 60 * 60 * 1000);
    await resumeAd(t.ctx, owner.viewer, adId);
    t.clock.advance(DAY_MS);
    await pauseAd(t.ctx, owner.viewer, adId);
    t.clock.advance(30 * 60 * 1000);
    await resumeAd(t.ctx, owner.viewer, adId);
    const ad = await adRow(adId);
    const paused = 2 * 60 * 60 * 1000 + 30 * 60 * 1000;
    expect(ad).toMatchObject({ status: "active", pausedAt: null, timePausedMs: paused });
    expect(ad?.endTimeAdjusted?.getTime()).toBe(start + 4 * DAY_MS + paused);
    const view = await getOwnAd(t.ctx, owner.viewer, adId);
    // 2 days ran (of 4): 2 days left, and two started days spent.
    expect(view?.timeLeftMs).toBe(2 * DAY_MS);
    expect(view?.spent).toBe(1000);
  });

  it("labels the owner's buttons (Boost for $5 / View Analytics / Boost Again) and Boosted for everyone", async () => {
    const other = await createTestMember(t);
    expect(
      ownerBoostButton((await getPostAdState(t.ctx, owner.viewer, { postId, campusId: "ou" })).latest),
    ).toBe("boost");
    const adId = await runningAd();
    const state = await getPostAdState(t.ctx, owner.viewer, { postId, campusId: "ou" });
    expect(state.boosted).toBe(true);
    expect(ownerBoostButton(state.latest)).toBe("analytics");
    expect(await getPostAdState(t.ctx, other.viewer, { postId, campusId: "ou" })).toEqual({
      boosted: true,
      latest: null,
      analyticsToken: expect.any(String),
    });
    await pauseAd(t.ctx, owner.viewer, adId);
    expect((await getPostAdState(t.ctx, owner.viewer, { postId, campusId: "ou" })).latest?.status).toBe(
      "paused",
    );
    expect((await getPostAdState(t.ctx, null, { postId, campusId: "ou" })).boosted).toBe(false);
    await stopAd(t.ctx, owner.viewer, adId);
    expect(
      ownerBoostButton((await getPostAdState(t.ctx, owner.viewer, { postId, campusId: "ou" })).latest),
    ).toBe("boost-again");
  });

  it("renames with a title of at most 50 characters", async () => {
    const adId = await runningAd();
    await renameAd(t.ctx, owner.viewer, adId, { title: "New title" });
    expect((await adRow(adId))?.title).toBe("New title");
    await expect(renameAd(t.ctx, owner.viewer, adId, { title: "x".repeat(51) })).rejects.toMatchObject({
      message: AD_MESSAGES.titleTooLong,
    });
  });
});

describe("refunds of unused whole days (decision 0272)", () => {
  it("stopping refunds the whole days left, shown in Payment Activity", async () => {
    const adId = await runningAd();
    t.clock.advance(1.5 * DAY_MS);
    expect(await stopAd(t.ctx, owner.viewer, adId)).toEqual({ refunded: 1000 });
    const ad = await adRow(adId);
    expect(ad).toMatchObject({ status: "stopped", amountRefunded: 1000, pausedAt: null });
    const activity = await listPayments(t.ctx, owner.viewer);
    expect(activity.map((row) => [row.kind, row.amount, row.status])).toEqual([
      ["refund", 1000, "succeeded"],
      ["payment", 2000, "succeeded"],
    ]);
    const view = await getOwnAd(t.ctx, owner.viewer, adId);
    expect(view?.spent).toBe(1000);
    expect(formatTimeLeft(view?.timeLeftMs ?? 0)).toBe("Expired");
  });

  it("a paused ad's days are counted from the pause; less than a day left refunds nothing", async () => {
    const adId = await runningAd({ days: "2" });
    t.clock.advance(0.5 * DAY_MS);
    await pauseAd(t.ctx, owner.viewer, adId);
    t.clock.advance(10 * DAY_MS);
    expect(await stopAd(t.ctx, owner.viewer, adId)).toEqual({ refunded: 500 });
    const second = await runningAd({ days: "1" });
    t.clock.advance(0.5 * DAY_MS);
    expect(await stopAd(t.ctx, owner.viewer, second)).toEqual({ refunded: 0 });
  });

  it("deleting the post ends its ad and refunds the unused days", async () => {
    const adId = await runningAd();
    t.clock.advance(DAY_MS / 2);
    await deletePost(t.ctx, owner.viewer, postId);
    expect(await adRow(adId)).toBeUndefined();
    const rows = await t.ctx.db.select().from(payments).where(eq(payments.kind, "refund"));
    expect(rows.map((row) => [row.amount, row.status, row.adId])).toEqual([[1500, "succeeded", null]]);
  });
});

describe("the ads job (decision 0275)", () => {
  it("completes ads whose end passed, once, with one summary e-mail each", async () => {
    const adId = await runningAd({ days: "1" });
    expect((await runAdsRound(t.ctx)).completed).toBe(0);
    t.clock.advance(DAY_MS);
    const rounds = await Promise.all([runAdsRound(t.ctx), runAdsRound(t.ctx)]);
    expect(rounds.reduce((sum, round) => sum + round.completed, 0)).toBe(1);
    expect((await adRow(adId))?.status).toBe("completed");
    const summaries = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "ad-summary"));
    expect(summaries.map((mail) => mail.to)).toEqual([owner.email]);
    expect(
      ownerBoostButton((await getPostAdState(t.ctx, owner.viewer, { postId, campusId: "ou" })).latest),
    ).toBe("boost-again");
  });

  it("drops checkouts left unpaid past 30 minutes", async () => {
    const { adId } = await boost();
    t.clock.advance(31 * 60 * 1000);
    expect((await runAdsRound(t.ctx)).expiredCheckouts).toBe(1);
    expect(await adRow(adId)).toBeUndefined();
    const [session] = await t.ctx.db.select().from(checkoutSessions);
    expect(session?.status).toBe("expired");
  });
});
