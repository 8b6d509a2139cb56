import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { campusOrigin } from "../campuses/campuses";
import type { AppContext } from "../context";
import { ads, checkoutSessions, postAnalytics, user } from "../db/schema";
import { enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { AdSummaryEmail } from "./mails";
import { processPendingRefunds } from "./refunds";
import { formatUsd } from "./schemas.shared";

/**
 * The expire-ads job (decision 0275, server/jobs/jobs.ts): completes running ads whose end has
 * passed and mails each owner a short summary; drops checkouts left unpaid past their 30 minutes;
 * retries refunds a provider failure left pending. One process at a time runs it (the job
 * registry's lock, decision 0480); each step is conditional on the row's status, so a round that
 * overlaps another (decision 0291's unfenced case) completes and mails each ad once.
 */
/** Ads completed per round: a backlog drains over rounds, each transaction stays short. */
export const ADS_JOB_BATCH = 100;

export interface AdsRound {
  completed: number;
  expiredCheckouts: number;
}

export async function runAdsRound(ctx: AppContext): Promise<AdsRound> {
  const now = ctx.clock.now();
  const round = await ctx.db.transaction(async (tx): Promise<AdsRound> => {
    const due = tx
      .select({ id: ads.id })
      .from(ads)
      .where(and(eq(ads.status, "active"), lte(ads.endTimeAdjusted, now)))
      .orderBy(asc(ads.endTimeAdjusted))
      .limit(ADS_JOB_BATCH);
    const completed = await tx
      .update(ads)
      .set({ status: "completed", endedAt: ads.endTimeAdjusted, lastModified: now })
      .where(and(inArray(ads.id, due), eq(ads.status, "active")))
      .returning();
    for (const ad of completed) {
      const [owner] = await tx
        .select({ email: user.email })
        .from(user)
        .where(eq(user.id, ad.userId))
        .limit(1);
      if (!owner) continue;
      const [numbers] = await tx
        .select()
        .from(postAnalytics)
        .where(eq(postAnalytics.postId, ad.postId))
        .limit(1);
      const origin = campusOrigin(ad.campusId, null, ctx.config);
      const { html, text } = await renderMail(
        AdSummaryEmail({
          campusName: ctx.campuses.get(ad.campusId)?.name ?? "Campus",
          title: ad.title,
          spent: formatUsd(ad.amountBudgeted - ad.amountRefunded),
          views: String(numbers?.views ?? 0),
          reached: String(numbers?.accountsReached ?? 0),
          messages: String(numbers?.directMessages ?? 0),
          clicks: String(numbers?.externalLinkClicks ?? 0),
          adUrl: `${origin}/ads/${ad.id}`,
        }),
      );
      await enqueueMail(
        tx,
        {
          campusId: ad.campusId,
          kind: "ad-summary",
          to: owner.email,
          subject: "Your ad has finished",
          html,
          text,
        },
        now,
      );
    }
    const expired = await tx
      .update(checkoutSessions)
      .set({ status: "expired" })
      .where(and(eq(checkoutSessions.status, "open"), lte(checkoutSessions.expiresAt, now)))
      .returning({ id: checkoutSessions.id });
    if (expired.length > 0) {
      await tx.delete(ads).where(
        and(
          inArray(
            ads.checkoutSessionId,
            expired.map((row) => row.id),
          ),
          eq(ads.status, "checkout"),
        ),
      );
    }
    return { completed: completed.length, expiredCheckouts: expired.length };
  });
  if (round.completed > 0) {
    ctx.wakeMailWorker();
    ctx.onAdsChanged?.();
  }
  await processPendingRefunds(ctx);
  return round;
}
