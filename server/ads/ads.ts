import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { preparedStatement } from "../db/prepared";
import { type AdStatus, ads, checkoutSessions, payments, postAnalytics, posts } from "../db/schema";
import { isUuid } from "../posts/input";
import { isBoostable, notBoostableMessage } from "../posts/listing";
import { issueAnalyticsToken } from "./analytics";
import { AD_MESSAGES, AdError, invalidAdInput } from "./errors";
import { DAY_MS, refundUnusedDays, timeLeftMs } from "./refunds";

export { ownerBoostButton } from "./sponsored";
export { DAY_MS, timeLeftMs };

import { parseInput } from "../validation";
import { adTitleSchema, boostSchema, DAILY_PRICE_CENTS, GOAL_LABEL, paidDays } from "./schemas";

/** Decision 0270: a checkout session expires after 30 minutes. */
export const CHECKOUT_TTL_MS = 30 * 60 * 1000;

/** spec 2 §4: an ad in one of these keeps its post from being boosted again ('This post is already boosted'). */
export const BOOSTED_STATUSES: readonly AdStatus[] = ["active", "paused", "scheduled", "in review"];

/** spec 2 §4 'Ad status values and labels'. */
export const STATUS_LABELS: Record<AdStatus, string> = {
  checkout: "Not Paid",
  scheduled: "Scheduled",
  "in review": "In Review",
  active: "Running",
  paused: "Paused",
  rejected: "Rejected",
  stopped: "Stopped",
  completed: "Completed",
};

export interface PostRef {
  postId: string;
  campusId: string;
}

/**
 * Whether `viewer` may boost the post: theirs, top-level, on this campus, and not boosted
 * already, and not a sold listing (decision 0170). THE one place of the boostability rules (the
 * boost page, boostPost, fulfilment). Missing or someone else's post → spec 2 §8 'Something Went
 * Wrong. Please logout and try again.'.
 */
export async function assertPostBoostable(
  db: Queryable,
  viewer: Viewer | null,
  ref: PostRef,
): Promise<{ id: string; campusId: string; authorId: string }> {
  if (!viewer || viewer.banned) throw new AdError("signed-out", AD_MESSAGES.boostRefused);
  if (!isUuid(ref.postId)) throw new AdError("not-found", AD_MESSAGES.boostRefused);
  const [post] = await db
    .select({
      id: posts.id,
      campusId: posts.campusId,
      authorId: posts.authorId,
      parentId: posts.parentId,
      type: posts.type,
      listingStatus: posts.listingStatus,
    })
    .from(posts)
    .where(and(eq(posts.id, ref.postId), eq(posts.campusId, ref.campusId)))
    .limit(1);
  if (!post || post.authorId !== viewer.id || post.parentId !== null || post.type !== "post") {
    throw new AdError("not-found", AD_MESSAGES.boostRefused);
  }
  if (!isBoostable({ status: post.listingStatus })) {
    throw new AdError("not-boostable", notBoostableMessage(post.listingStatus));
  }
  const [live] = await db
    .select({ id: ads.id })
    .from(ads)
    .where(and(eq(ads.postId, post.id), inArray(ads.status, [...BOOSTED_STATUSES])))
    .limit(1);
  if (live) throw new AdError("already-boosted", AD_MESSAGES.alreadyBoosted, { alertType: "okay" });
  return post;
}

export interface BoostResult {
  adId: string;
  /** Where the browser goes to pay: Stripe Checkout, or the test checkout page. */
  checkoutUrl: string;
}

/**
 * spec 2 §4 'Creation sets checkout', §7 Checkout: the ad is written in checkout, then a
 * checkout session is created for 500 × days cents (decision 0270). An earlier unpaid
 * checkout of the same post is replaced. The session's URLs carry `{CHECKOUT_SESSION_ID}`.
 */
export async function boostPost(
  ctx: AppContext,
  viewer: Viewer | null,
  ref: PostRef,
  form: unknown,
  origin: string,
): Promise<BoostResult> {
  const input = parseInput(boostSchema, form, invalidAdInput);
  // Decision 0270: the test checkout never runs in production; without Stripe keys there, no boost can be paid.
  if (ctx.config.production && ctx.payments.provider === "test") {
    ctx.log.error("boost refused: NODE_ENV=production without STRIPE_SECRET_KEY");
    throw new AdError("payment-failed", AD_MESSAGES.somethingWentWrong);
  }
  const now = ctx.clock.now();
  const days = paidDays(input);
  const ad = await ctx.db.transaction(async (tx) => {
    const post = await assertPostBoostable(tx, viewer, ref);
    const owner = viewer as Viewer;
    await tx
      .delete(ads)
      .where(and(eq(ads.postId, post.id), eq(ads.status, "checkout"), eq(ads.userId, owner.id)));
    const [created] = await tx
      .insert(ads)
      .values({
        campusId: post.campusId,
        postId: post.id,
        userId: owner.id,
        title: input.title,
        ctaType: input.goal,
        ctaLabel: input.goal === "website" ? (input.buttonLabel ?? "Visit Website") : GOAL_LABEL[input.goal],
        ctaUrl: input.goal === "website" ? (input.websiteUrl ?? null) : null,
        days,
        runUntilPause: input.runUntilPause,
        amountBudgeted: days * DAILY_PRICE_CENTS,
        status: "checkout",
        createdAt: now,
        lastModified: now,
      })
      .returning({
        id: ads.id,
        amountBudgeted: ads.amountBudgeted,
        userId: ads.userId,
        campusId: ads.campusId,
      });
    if (!created) throw new AdError("invalid-input", AD_MESSAGES.somethingWentWrong);
    return created;
  });

  const base = `${origin}/post/${ref.postId}/boost`;
  const expiresAt = new Date(now.getTime() + CHECKOUT_TTL_MS);
  let session: { id: string; url: string };
  try {
    session = await ctx.payments.createCheckoutSession({
      adId: ad.id,
      days,
      unitAmount: DAILY_PRICE_CENTS,
      productName: `Boost post (${days} day${days === 1 ? "" : "s"})`,
      successUrl: `${base}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/cancel?session_id={CHECKOUT_SESSION_ID}`,
      origin,
      // Stripe wants at least 30 minutes from its own clock: a minute's margin for skew.
      expiresAt: ctx.payments.provider === "stripe" ? new Date(expiresAt.getTime() + 60_000) : expiresAt,
    });
  } catch (error) {
    // spec 2 §8 'Something went wrong' (ad creation failure): nothing half-made stays behind.
    ctx.log.error({ err: error, adId: ad.id }, "checkout session could not be created");
    await ctx.db.delete(ads).where(and(eq(ads.id, ad.id), eq(ads.status, "checkout")));
    throw new AdError("payment-failed", AD_MESSAGES.somethingWentWrong);
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(ads).set({ checkoutSessionId: session.id }).where(eq(ads.id, ad.id));
    await tx
      .insert(checkoutSessions)
      .values({
        id: session.id,
        adId: ad.id,
        userId: ad.userId,
        campusId: ad.campusId,
        provider: ctx.payments.provider,
        amountTotal: ad.amountBudgeted,
        successUrl: `${base}/success?session_id=${session.id}`,
        cancelUrl: `${base}/cancel?session_id=${session.id}`,
        createdAt: now,
        expiresAt,
      })
      .onConflictDoNothing();
  });
  return { adId: ad.id, checkoutUrl: session.url };
}

/**
 * spec 2 §4 'Payment cancel page: an ad still in checkout is deleted'. Only the owner's,
 * only while unpaid: a session paid meanwhile keeps its ad (fulfilment activates it).
 */
export async function cancelCheckout(
  ctx: AppContext,
  viewer: Viewer | null,
  input: { postId: string; sessionId: string | null },
): Promise<{ deleted: boolean }> {
  if (!viewer) throw new AdError("signed-out", AD_MESSAGES.boostRefused);
  if (!isUuid(input.postId)) return { deleted: false };
  const conditions = [eq(ads.postId, input.postId), eq(ads.userId, viewer.id), eq(ads.status, "checkout")];
  if (input.sessionId) conditions.push(eq(ads.checkoutSessionId, input.sessionId));
  const deleted = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .delete(ads)
      .where(and(...conditions))
      .returning({ id: ads.id, session: ads.checkoutSessionId });
    const sessions = rows.map((row) => row.session).filter((id): id is string => id !== null);
    if (sessions.length > 0) {
      await tx
        .update(checkoutSessions)
        .set({ status: "expired" })
        .where(and(inArray(checkoutSessions.id, sessions), eq(checkoutSessions.status, "open")));
    }
    return rows.length;
  });
  if (deleted > 0) ctx.onAdsChanged?.();
  return { deleted: deleted > 0 };
}

type AdRow = typeof ads.$inferSelect;

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
 * spec 2 §4 'Resume: only from paused … the pause length is added to time_paused and
 * end_time_adjusted is pushed out by the pause length; paused_at cleared'.
 */
export async function resumeAd(ctx: AppContext, viewer: Viewer | null, adId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const ad = await lockOwnAd(tx, viewer, adId);
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
  await tx
    .update(ads)
    .set({ status: "stopped", pausedAt: null, endedAt: ad.pausedAt ?? now, lastModified: now })
    .where(eq(ads.id, ad.id));
  return refundUnusedDays(ctx, tx, ad, now, description);
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

// ---------------------------------------------------------------------------
// What the ads pages show (spec 2 §2 Ads, §4 stats).

export interface AdAnalytics {
  views: number;
  accountsReached: number;
  directMessages: number;
  copiedLink: number;
  externalLinkClicks: number;
  profileVisits: number;
}

export interface AdView {
  id: string;
  postId: string;
  title: string;
  status: AdStatus;
  statusLabel: string;
  cta: { type: "website" | "message" | "profile"; label: string; url: string | null };
  days: number;
  runUntilPause: boolean;
  /** spec 2 §4: '--' while checkout, scheduled or in review. */
  statsHidden: boolean;
  budget: number;
  spent: number;
  refunded: number;
  /** Milliseconds of running time left (0 or less: 'Expired'). */
  timeLeftMs: number;
  startTime: Date | null;
  endTime: Date | null;
  createdAt: Date;
  postText: string;
  analytics: AdAnalytics;
}

const NO_ANALYTICS: AdAnalytics = {
  views: 0,
  accountsReached: 0,
  directMessages: 0,
  copiedLink: 0,
  externalLinkClicks: 0,
  profileVisits: 0,
};

const STATS_HIDDEN: readonly AdStatus[] = ["checkout", "scheduled", "in review"];

/** Cents spent: every started day of running time, never more than was kept (budget − refunds). */
export function spentCents(
  ad: Pick<
    AdRow,
    "status" | "startTime" | "endedAt" | "pausedAt" | "timePausedMs" | "amountBudgeted" | "amountRefunded"
  >,
  now: Date,
): number {
  const kept = ad.amountBudgeted - ad.amountRefunded;
  if (!ad.startTime) return 0;
  if (ad.status === "stopped" || ad.status === "completed") return kept;
  const until = ad.status === "paused" && ad.pausedAt ? ad.pausedAt : now;
  const ranMs = Math.max(0, until.getTime() - ad.startTime.getTime() - ad.timePausedMs);
  return Math.min(kept, Math.ceil(ranMs / DAY_MS) * DAILY_PRICE_CENTS);
}

export { formatTimeLeft } from "./schemas";

const adViewColumns = {
  ad: ads,
  postText: posts.textPlain,
  analytics: {
    views: postAnalytics.views,
    accountsReached: postAnalytics.accountsReached,
    directMessages: postAnalytics.directMessages,
    copiedLink: postAnalytics.copiedLink,
    externalLinkClicks: postAnalytics.externalLinkClicks,
    profileVisits: postAnalytics.profileVisits,
  },
};

type AdViewRow = {
  ad: AdRow;
  postText: string;
  analytics: AdAnalytics | null;
};

function toAdView(row: AdViewRow, now: Date): AdView {
  const { ad } = row;
  return {
    id: ad.id,
    postId: ad.postId,
    title: ad.title,
    status: ad.status,
    statusLabel: STATUS_LABELS[ad.status],
    cta: { type: ad.ctaType, label: ad.ctaLabel, url: ad.ctaUrl },
    days: ad.days,
    runUntilPause: ad.runUntilPause,
    statsHidden: STATS_HIDDEN.includes(ad.status),
    budget: ad.amountBudgeted,
    spent: spentCents(ad, now),
    refunded: ad.amountRefunded,
    timeLeftMs: timeLeftMs(ad, now),
    startTime: ad.startTime,
    endTime: ad.endTimeAdjusted,
    createdAt: ad.createdAt,
    postText: row.postText.slice(0, 120),
    // spec 2 §6: the numbers of the viewer's own ads' posts only (the query is by owner).
    analytics: row.analytics ?? NO_ANALYTICS,
  };
}

export const ADS_PAGE_SIZE = 50;

/**
 * spec 2 §7 'User ads by user._id … createdAt descending': the viewer's ads (newest first,
 * ads_user_idx), the most recent ADS_PAGE_SIZE.
 */
export async function listOwnAds(ctx: AppContext, viewer: Viewer): Promise<AdView[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db
    .select(adViewColumns)
    .from(ads)
    .innerJoin(posts, eq(posts.id, ads.postId))
    .leftJoin(postAnalytics, eq(postAnalytics.postId, ads.postId))
    .where(eq(ads.userId, viewer.id))
    .orderBy(desc(ads.createdAt), desc(ads.id))
    .limit(ADS_PAGE_SIZE);
  return rows.map((row) => toAdView(row, now));
}

/** spec 2 §2 '/ads/{adID}': one of the viewer's ads, or null ('Sorry, that ad has been deleted.'). */
export async function getOwnAd(ctx: AppContext, viewer: Viewer, adId: string): Promise<AdView | null> {
  if (!isUuid(adId)) return null;
  const [row] = await ctx.db
    .select(adViewColumns)
    .from(ads)
    .innerJoin(posts, eq(posts.id, ads.postId))
    .leftJoin(postAnalytics, eq(postAnalytics.postId, ads.postId))
    .where(and(eq(ads.id, adId), eq(ads.userId, viewer.id)))
    .limit(1);
  return row ? toAdView(row, ctx.clock.now()) : null;
}

/** What the post page shows of a post's ads (spec 2 §4 'Owner post buttons'). */
export interface PostAdState {
  /** 'Boosted' label: an active ad (shown to everyone). */
  boosted: boolean;
  /** For the owner only: the latest ad, for the buttons and 'Ad Paused'. */
  latest: { id: string; status: AdStatus } | null;
  /** While the ad runs: what the page counts a view or a click with (decision 0467). */
  analyticsToken: string | null;
}

export async function getPostAdState(
  ctx: AppContext,
  viewer: Viewer | null,
  ref: { postId: string; campusId: string },
): Promise<PostAdState> {
  const { postId } = ref;
  if (!isUuid(postId)) return { boosted: false, latest: null, analyticsToken: null };
  // Read on every post page: prepared once per database (decision 0105).
  const statement = preparedStatement(ctx.db, "post_latest_ad", () =>
    ctx.db
      .select({ id: ads.id, status: ads.status, userId: ads.userId, end: ads.endTimeAdjusted })
      .from(ads)
      .where(eq(ads.postId, sql.placeholder("postId")))
      .orderBy(desc(ads.createdAt))
      .limit(1),
  );
  const rows = (await statement.execute({ postId })) as {
    id: string;
    status: AdStatus;
    userId: string;
    end: Date | null;
  }[];
  const latest = rows[0];
  if (!latest) return { boosted: false, latest: null, analyticsToken: null };
  const now = ctx.clock.now();
  const running = latest.status === "active" && latest.end !== null && latest.end > now;
  const status: AdStatus = latest.status === "active" && !running ? "completed" : latest.status;
  return {
    boosted: running,
    latest: viewer && viewer.id === latest.userId ? { id: latest.id, status } : null,
    analyticsToken: running ? issueAnalyticsToken(ctx, ref) : null,
  };
}

// ---------------------------------------------------------------------------
// Refunds that wait for the provider.

/**
 * Sends the refunds recorded as pending (decision 0272) to the provider and marks them
 * succeeded. Called after the transaction that recorded them, and by the ads job, which
 * retries any a failure left behind. The provider call carries an idempotency key per
 * refund row, so a retry never refunds twice.
 */
export async function processPendingRefunds(ctx: AppContext, limit = 20): Promise<number> {
  const pending = await ctx.db
    .select({
      id: payments.id,
      amount: payments.amount,
      refundOf: payments.refundOf,
      provider: payments.provider,
    })
    .from(payments)
    .where(and(eq(payments.status, "pending"), eq(payments.kind, "refund")))
    .orderBy(payments.createdAt)
    .limit(limit);
  let done = 0;
  for (const refund of pending) {
    try {
      let providerRef: string | null = null;
      if (refund.provider === ctx.payments.provider && refund.refundOf) {
        const result = await ctx.payments.refund({
          paymentIntent: refund.refundOf,
          amount: refund.amount,
          idempotencyKey: `refund-${refund.id}`,
        });
        providerRef = result.id;
      } else if (refund.provider !== ctx.payments.provider) {
        // A refund of a payment another provider took (keys added or removed since): left for an operator.
        continue;
      }
      await ctx.db
        .update(payments)
        .set({ status: "succeeded", providerRef })
        .where(and(eq(payments.id, refund.id), eq(payments.status, "pending")));
      done++;
    } catch (error) {
      ctx.log.error({ err: error, refundId: refund.id }, "refund failed; the ads job will retry it");
    }
  }
  return done;
}
