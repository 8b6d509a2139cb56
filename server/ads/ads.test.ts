import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { ads, checkoutSessions, mailOutbox, payments, postAnalytics } from "../db/schema";
import { setListingStatus } from "../posts/listing-status";
import { deletePost } from "../posts/posts";
import {
  boostPost,
  cancelCheckout,
  DAY_MS,
  formatTimeLeft,
  getOwnAd,
  getPostAdState,
  listOwnAds,
  ownerBoostButton,
  pauseAd,
  renameAd,
  resumeAd,
  stopAd,
} from "./ads";
import { AD_MESSAGES } from "./errors";
import { confirmCheckout, fulfillCheckout, handlePaymentWebhook, payTestCheckout } from "./fulfilment";
import { listPayments } from "./payments-activity";
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

function completedEvent(sessionId: string, adId: string, overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: "evt_same_event",
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        id: sessionId,
        object: "checkout.session",
        status: "complete",
        payment_status: "paid",
        amount_total: 2000,
        currency: "usd",
        metadata: { adId },
        payment_intent: "pi_test_1",
        ...overrides,
      },
    },
  });
}

describe("boostPost (spec 2 §5 Boost, §4 creation sets checkout)", () => {
  it("refuses a missing website, a partial URL and a missing button label with the spec's messages", async () => {
    await expect(boost({ websiteUrl: "" })).rejects.toMatchObject({
      message: AD_MESSAGES.websiteRequired,
      field: "websiteUrl",
    });
    await expect(boost({ websiteUrl: "example.com" })).rejects.toMatchObject({
      message: AD_MESSAGES.websiteInvalid,
    });
    await expect(boost({ websiteUrl: "http://www.example.com" })).rejects.toMatchObject({
      message: AD_MESSAGES.websiteInvalid,
    });
    await expect(boost({ buttonLabel: "" })).rejects.toMatchObject({ message: AD_MESSAGES.labelRequired });
    await expect(boost({ title: "x".repeat(51) })).rejects.toMatchObject({
      message: AD_MESSAGES.titleTooLong,
    });
    expect(await t.ctx.db.select().from(ads)).toHaveLength(0);
  });

  it("writes the ad in checkout for 500 × days cents and a 30-minute session", async () => {
    const { adId, checkoutUrl } = await boost({ days: "7" });
    const ad = await adRow(adId);
    expect(ad).toMatchObject({
      status: "checkout",
      days: 7,
      amountBudgeted: 3500,
      ctaType: "website",
      ctaLabel: "Shop Now",
    });
    expect(checkoutUrl).toMatch(new RegExp(`^${ORIGIN}/checkout/test/cs_test_`));
    const [session] = await t.ctx.db.select().from(checkoutSessions);
    expect(session?.amountTotal).toBe(3500);
    expect((session?.expiresAt.getTime() ?? 0) - t.clock.now().getTime()).toBe(30 * 60 * 1000);
    expect(session?.successUrl).toBe(`${ORIGIN}/post/${postId}/boost/success?session_id=${session?.id}`);
  });

  it("pays 30 days ahead for 'run until pause' (decision 0271) and labels message goals itself", async () => {
    const { adId } = await boostPost(
      t.ctx,
      owner.viewer,
      ref(),
      { goal: "message", runUntilPause: "on", days: "3" },
      ORIGIN,
    );
    expect(await adRow(adId)).toMatchObject({
      runUntilPause: true,
      days: 30,
      amountBudgeted: 15000,
      ctaLabel: "Send Message",
      ctaUrl: null,
    });
  });

  it("refuses visitors, other users' posts and a post already boosted", async () => {
    await expect(boostPost(t.ctx, null, ref(), websiteForm(), ORIGIN)).rejects.toMatchObject({
      message: AD_MESSAGES.boostRefused,
    });
    const other = await createTestMember(t);
    await expect(boostPost(t.ctx, other.viewer, ref(), websiteForm(), ORIGIN)).rejects.toMatchObject({
      message: AD_MESSAGES.boostRefused,
    });
    await runningAd();
    await expect(boost()).rejects.toMatchObject({ message: AD_MESSAGES.alreadyBoosted });
  });

  it("replaces an unpaid checkout of the same post", async () => {
    await boost();
    const { adId } = await boost();
    const rows = await t.ctx.db.select().from(ads);
    expect(rows.map((row) => row.id)).toEqual([adId]);
  });
});

describe("fulfilment (decision 0270)", () => {
  it("activates through the test checkout: running for its days, one payment, one receipt", async () => {
    const adId = await runningAd();
    const ad = await adRow(adId);
    expect(ad?.status).toBe("active");
    expect(ad?.endTimeAdjusted?.getTime()).toBe(t.clock.now().getTime() + 4 * DAY_MS);
    expect(await t.ctx.db.select().from(payments)).toHaveLength(1);
    const receipts = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "ad-receipt"));
    expect(receipts.map((mail) => mail.to)).toEqual([owner.email]);
    expect(receipts[0]?.text).toContain("$20.00");
  });

  it("10 concurrent deliveries of one event give one activation, one payment row and one e-mail", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    const payload = completedEvent(sessionId, adId);
    const signature = t.ctx.payments.signPayload(payload);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => handlePaymentWebhook(t.ctx, payload, signature)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.body.outcome === "activated")).toHaveLength(1);
    expect(await t.ctx.db.select().from(payments)).toHaveLength(1);
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "ad-receipt"))).toHaveLength(1);
    // The success page arriving after the webhook changes nothing either.
    expect(await confirmCheckout(t.ctx, owner.viewer, { postId, sessionId })).toEqual({ running: true });
    expect(await t.ctx.db.select().from(payments)).toHaveLength(1);
  });

  it("different events for one session (webhook, then a retry with a new id) still activate once", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    for (const id of ["evt_a", "evt_b"]) {
      const payload = completedEvent(sessionId, adId, {}).replace("evt_same_event", id);
      await handlePaymentWebhook(t.ctx, payload, t.ctx.payments.signPayload(payload));
    }
    expect(await t.ctx.db.select().from(payments)).toHaveLength(1);
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "ad-receipt"))).toHaveLength(1);
  });

  it("refuses a paid session whose amount or currency does not match the ad", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    for (const [index, overrides] of [{ amount_total: 500 }, { currency: "eur" }].entries()) {
      const payload = completedEvent(sessionId, adId, overrides).replace("evt_same_event", `evt_${index}`);
      const answer = await handlePaymentWebhook(t.ctx, payload, t.ctx.payments.signPayload(payload));
      expect(answer.body.outcome).toBe("refused");
    }
    expect((await adRow(adId))?.status).toBe("checkout");
    expect(await t.ctx.db.select().from(payments)).toHaveLength(0);
  });

  it("answers 400 to a tampered body, a stale signature, another secret's signature and none", async () => {
    const { adId } = await boost();
    const payload = completedEvent(await sessionOf(adId), adId);
    const signature = t.ctx.payments.signPayload(payload);
    const tampered = payload.replace('"amount_total":2000', '"amount_total":2001');
    expect((await handlePaymentWebhook(t.ctx, tampered, signature)).status).toBe(400);
    const stale = t.ctx.payments.signPayload(payload, Math.floor(Date.now() / 1000) - 301);
    expect((await handlePaymentWebhook(t.ctx, payload, stale)).status).toBe(400);
    const { createTestPayments } = await import("../payments/payments");
    const stranger = createTestPayments({ webhookSecret: "whsec_other", readSession: async () => null });
    expect((await handlePaymentWebhook(t.ctx, payload, stranger.signPayload(payload))).status).toBe(400);
    expect((await handlePaymentWebhook(t.ctx, payload, undefined)).status).toBe(400);
    expect((await adRow(adId))?.status).toBe("checkout");
  });

  it("does nothing for an unpaid session and says 'being processed' until it is paid", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    expect(await confirmCheckout(t.ctx, owner.viewer, { postId, sessionId })).toEqual({ running: false });
    const outcome = await fulfillCheckout(
      t.ctx,
      {
        id: sessionId,
        status: "open",
        paymentStatus: "unpaid",
        amountTotal: 2000,
        currency: "usd",
        adId,
        paymentIntent: null,
      },
      null,
    );
    expect(outcome).toBe("not-paid");
    expect((await adRow(adId))?.status).toBe("checkout");
  });

  it("the declining test card is refused and nothing runs", async () => {
    const { adId } = await boost();
    await expect(
      payTestCheckout(t.ctx, owner.viewer, { sessionId: await sessionOf(adId), card: "4000 0000 0000 0002" }),
    ).rejects.toMatchObject({ message: AD_MESSAGES.cardDeclined });
    expect((await adRow(adId))?.status).toBe("checkout");
  });

  it("cancel deletes an ad still in checkout; a payment arriving afterwards is refunded in full", async () => {
    const { adId } = await boost();
    const sessionId = await sessionOf(adId);
    expect(await cancelCheckout(t.ctx, owner.viewer, { postId, sessionId })).toEqual({ deleted: true });
    expect(await adRow(adId)).toBeUndefined();
    const payload = completedEvent(sessionId, adId);
    const answer = await handlePaymentWebhook(t.ctx, payload, t.ctx.payments.signPayload(payload));
    expect(answer.body.outcome).toBe("refunded");
    const rows = await t.ctx.db.select().from(payments).orderBy(payments.kind);
    expect(rows.map((row) => [row.kind, row.amount, row.status])).toEqual([
      ["payment", 2000, "succeeded"],
      ["refund", 2000, "succeeded"],
    ]);
  });

  it("cancel after payment deletes nothing", async () => {
    const adId = await runningAd();
    expect(await cancelCheckout(t.ctx, owner.viewer, { postId, sessionId: await sessionOf(adId) })).toEqual({
      deleted: false,
    });
    expect((await adRow(adId))?.status).toBe("active");
  });
});

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

describe("sold listings (decisions 0170, 0272)", () => {
  it("marking the post sold ends its ad and refunds the unused days; a sold post cannot be boosted", async () => {
    const adId = await runningAd();
    t.clock.advance(DAY_MS / 2);
    await setListingStatus(t.ctx, owner.viewer, { postId, status: "sold" });
    expect((await adRow(adId))?.status).toBe("stopped");
    const rows = await t.ctx.db.select().from(payments).where(eq(payments.kind, "refund"));
    expect(rows.map((row) => [row.amount, row.status])).toEqual([[1500, "succeeded"]]);
    await expect(boost()).rejects.toMatchObject({
      code: "not-boostable",
      message: "Sold listings can't be boosted.",
    });
    await setListingStatus(t.ctx, owner.viewer, { postId, status: "available" });
    await expect(boost()).resolves.toMatchObject({ adId: expect.any(String) });
  });
});

describe("reserved listings (decision 0442)", () => {
  it("a reserved listing cannot be boosted, with its own reason; available again, it can", async () => {
    await setListingStatus(t.ctx, owner.viewer, { postId, status: "reserved" });
    await expect(boost()).rejects.toMatchObject({
      code: "not-boostable",
      message: "Reserved listings can't be boosted.",
    });
    await setListingStatus(t.ctx, owner.viewer, { postId, status: "available" });
    await expect(boost()).resolves.toMatchObject({ adId: expect.any(String) });
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

describe("the ads list (spec 2 §2 /ads)", () => {
  it("lists only the viewer's ads, newest first, with '--' stats while in checkout", async () => {
    const first = await runningAd();
    const otherPost = (await createTestPost(t, owner.viewer)).id;
    t.clock.advance(1000);
    const { adId: second } = await boostPost(
      t.ctx,
      owner.viewer,
      { postId: otherPost, campusId: "ou" },
      websiteForm(),
      ORIGIN,
    );
    const stranger = await createTestMember(t);
    expect(await listOwnAds(t.ctx, stranger.viewer)).toEqual([]);
    const list = await listOwnAds(t.ctx, owner.viewer);
    expect(list.map((ad) => [ad.id, ad.statusLabel, ad.statsHidden])).toEqual([
      [second, "Not Paid", true],
      [first, "Running", false],
    ]);
    expect(await getOwnAd(t.ctx, stranger.viewer, first)).toBeNull();
    const [analytics] = await t.ctx.db
      .select()
      .from(postAnalytics)
      .where(and(eq(postAnalytics.postId, postId)));
    expect(analytics).toBeUndefined();
  });

  it("formats the time left as days, hours and minutes", () => {
    expect(formatTimeLeft(0)).toBe("Expired");
    expect(formatTimeLeft(-5)).toBe("Expired");
    expect(formatTimeLeft(DAY_MS * 2 + 3 * 3600_000 + 5 * 60_000)).toBe("2 days, 3 hours");
    expect(formatTimeLeft(3600_000 + 60_000)).toBe("1 hour, 1 minute");
    expect(formatTimeLeft(59_000)).toBe("0 minutes");
  });
});
