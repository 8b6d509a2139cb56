import { and, eq, inArray } from "drizzle-orm";
import { assertCanParticipate } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUuid } from "../db/ids";
import { type AdStatus, ads, checkoutSessions, posts } from "../db/schema";
import { isBoostable, notBoostableMessage } from "../posts/listing.shared";
import { parseInput } from "../validation";
import { AD_MESSAGES, AdError, invalidAdInput } from "./errors.shared";
import { boostSchema, DAILY_PRICE_CENTS, GOAL_LABEL, paidDays } from "./schemas.shared";

/** Boosting a post (spec 2 §4 'Boost', §9; decision 0270): who may boost what, the checkout, cancelling it. */

/** Decision 0270: a checkout session expires after 30 minutes. */
export const CHECKOUT_TTL_MS = 30 * 60 * 1000;

/** spec 2 §4: an ad in one of these keeps its post from being boosted again ('This post is already boosted'). */
export const BOOSTED_STATUSES: readonly AdStatus[] = ["active", "paused", "scheduled", "in review"];

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
  // Decision 0547: a suspended student cannot boost (signed out stays the boost's own refusal below).
  if (viewer && !viewer.banned) assertCanParticipate(viewer, "boost", now);
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
