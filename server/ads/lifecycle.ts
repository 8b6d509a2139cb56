import { and, eq, gt, inArray } from "drizzle-orm";
import { assertCanParticipate } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUuid } from "../db/ids";
import { ads } from "../db/schema";
import { parseInput } from "../validation";
import { AD_MESSAGES, AdError, invalidAdInput } from "./errors.shared";
import { processPendingRefunds, refundUnusedDays } from "./refunds";
import { adTitleSchema } from "./schemas.shared";

/** An ad's life after payment (spec 2 §4 'Ad status values', Pause, Resume, Stop): each transition under the ad's row lock. */

export type AdRow = typeof ads.$inferSelect;

/** The viewer's ad, locked for a transition; 'Ad not found' for anyone else's (spec 2 §6). */
async function lockOwnAd(tx: Queryable, viewer: Viewer | null, adId: string): Promise<AdRow> {
  if (!viewer) throw new AdError("signed-out", AD_MESSAGES.boostRefused);
  if (!isUuid(adId)) throw new AdError("not-found", AD_MESSAGES.adNotFound);
  const [ad] = await tx
    .select()
    .from(ads)
    .where(and(eq(ads.id, adId), eq(ads.userId, viewer.id)))
    .limit(1)
    .for("update");
  if (!ad) throw new AdError("not-found", AD_MESSAGES.adNotFound);
  return ad;
}

/** An active ad whose end passed is completed, whatever is asked of it (the job may not have run yet). */
function hasRunOut(ad: AdRow, now: Date): boolean {
  return ad.status === "active" && ad.endTimeAdjusted !== null && ad.endTimeAdjusted <= now;
}

async function completeNow(tx: Queryable, ad: AdRow, now: Date): Promise<void> {
  await tx
    .update(ads)
    .set({ status: "completed", endedAt: ad.endTimeAdjusted, lastModified: now })
    .where(eq(ads.id, ad.id));
}

/** spec 2 §4 'Pause: only from active (else "Only active ads can be paused"); sets paused_at'. */
export async function pauseAd(ctx: AppContext, viewer: Viewer | null, adId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db
    .transaction(async (tx) => {
      const ad = await lockOwnAd(tx, viewer, adId);
      if (hasRunOut(ad, now)) {
        await completeNow(tx, ad, now);
        return "completed";
      }
      if (ad.status !== "active") throw new AdError("illegal-transition", AD_MESSAGES.onlyActiveCanPause);
      await tx
        .update(ads)
        .set({ status: "paused", pausedAt: now, lastModified: now })
        .where(eq(ads.id, ad.id));
      return "paused";
    })
    .then((outcome) => {
      ctx.onAdsChanged?.();
      if (outcome === "completed") throw new AdError("illegal-transition", AD_MESSAGES.onlyActiveCanPause);
    });
}

/**
 * Decision 0543: a suspension pauses the student's running ads, as their own Pause would, in the
 * suspension's transaction: a paused ad spends none of its days, and Resume (refused while the
 * suspension lasts) pushes its end out by the pause. Returns how many were paused.
 */
export async function pauseRunningAdsOf(tx: Queryable, userId: string, now: Date): Promise<number> {
  const paused = await tx
    .update(ads)
    .set({ status: "paused", pausedAt: now, lastModified: now })
    .where(and(eq(ads.userId, userId), eq(ads.status, "active"), gt(ads.endTimeAdjusted, now)))
    .returning({ id: ads.id });
  return paused.length;
}

/**
 * spec 2 §4 'Resume: only from paused … the pause length is added to time_paused and
 * end_time_adjusted is pushed out by the pause length; paused_at cleared'.
 */
export async function resumeAd(ctx: AppContext, viewer: Viewer | null, adId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const ad = await lockOwnAd(tx, viewer, adId);
    // Decision 0547: not while suspended (the suspension paused it, decision 0543).
    assertCanParticipate(viewer, "boost", now);
    if (ad.status !== "paused" || !ad.pausedAt || !ad.endTimeAdjusted) {
      throw new AdError("illegal-transition", AD_MESSAGES.onlyPausedCanResume);
    }
    const pauseMs = Math.max(0, now.getTime() - ad.pausedAt.getTime());
    await tx
      .update(ads)
      .set({
        status: "active",
        pausedAt: null,
        timePausedMs: ad.timePausedMs + pauseMs,
        endTimeAdjusted: new Date(ad.endTimeAdjusted.getTime() + pauseMs),
        lastModified: now,
      })
      .where(eq(ads.id, ad.id));
  });
  ctx.onAdsChanged?.();
}

/**
 * spec 2 §4 'Stop: from active or paused (from stopped fails with "Ad is already stopped");
 * clears paused time'. The unused whole days are refunded (decision 0272).
 */
export async function stopAd(
  ctx: AppContext,
  viewer: Viewer | null,
  adId: string,
): Promise<{ refunded: number }> {
  const now = ctx.clock.now();
  const refunded = await ctx.db.transaction(async (tx) => {
    const ad = await lockOwnAd(tx, viewer, adId);
    // An ad whose time ran out is over already (the job marks it completed).
    if (ad.status === "stopped" || ad.status === "completed" || hasRunOut(ad, now)) {
      throw new AdError("illegal-transition", AD_MESSAGES.alreadyStopped);
    }
    if (ad.status !== "active" && ad.status !== "paused") {
      throw new AdError("illegal-transition", AD_MESSAGES.failedToStop);
    }
    return endAd(ctx, tx, ad, now, "Refund: ad stopped");
  });
  ctx.onAdsChanged?.();
  await processPendingRefunds(ctx);
  return { refunded };
}

/** Ends a running or paused ad now: stopped, with its unused whole days refunded. Returns the cents refunded. */
async function endAd(
  ctx: AppContext,
  tx: Queryable,
  ad: AdRow,
  now: Date,
  description: string,
): Promise<number> {
  await stopAdRow(tx, ad, now);
  return refundUnusedDays(ctx, tx, ad, now, description);
}

/**
 * spec 2 §4 Stop's change of the row alone (stopped, paused time cleared, spend counted to now or
 * the pause), in the caller's transaction, for a caller that refunds in its own way: a site
 * admin's refund (decision 0560).
 */
export async function stopAdRow(tx: Queryable, ad: AdRow, now: Date): Promise<void> {
  await tx
    .update(ads)
    .set({ status: "stopped", pausedAt: null, endedAt: ad.pausedAt ?? now, lastModified: now })
    .where(eq(ads.id, ad.id));
}

/**
 * Decision 0272: deleting a post (and selling it, decision 0170) ends its running or paused
 * ad and refunds the unused whole days, in the caller's transaction; an unpaid checkout
 * simply goes. Call processPendingRefunds after the commit.
 */
export async function endAdsOfPost(
  ctx: AppContext,
  tx: Queryable,
  postId: string,
  description: string,
): Promise<void> {
  const now = ctx.clock.now();
  const rows = await tx
    .select()
    .from(ads)
    .where(and(eq(ads.postId, postId), inArray(ads.status, ["active", "paused", "checkout"])))
    .for("update");
  for (const ad of rows) {
    if (ad.status === "checkout") await tx.delete(ads).where(eq(ads.id, ad.id));
    else await endAd(ctx, tx, ad, now, description);
  }
}

/** spec 2 §5 'Ad title max 50 characters'; spec 2 §8 'Saved changes!'. */
export async function renameAd(
  ctx: AppContext,
  viewer: Viewer | null,
  adId: string,
  form: unknown,
): Promise<void> {
  const { title } = parseInput(adTitleSchema, form, invalidAdInput);
  await ctx.db.transaction(async (tx) => {
    const ad = await lockOwnAd(tx, viewer, adId);
    await tx.update(ads).set({ title, lastModified: ctx.clock.now() }).where(eq(ads.id, ad.id));
  });
}
