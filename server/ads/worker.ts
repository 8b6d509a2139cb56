import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { campusOrigin } from "../campuses/campuses";
import type { AppContext } from "../context";
import { ads, checkoutSessions, postAnalytics, user } from "../db/schema";
import { enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { processPendingRefunds } from "./ads";
import { AdSummaryEmail } from "./mails";
import { formatUsd } from "./schemas";

/**
 * The ads job (decision 0275): completes running ads whose end has passed and mails each owner a
 * short summary; drops checkouts left unpaid past their 30 minutes; retries refunds a provider
 * failure left pending. Every app process starts it, but one round runs at a time across them:
 * the round holds a transaction-scoped advisory lock and a process that cannot take it skips
 * the round (decision 0275).
 */
export const ADS_JOB_LOCK_KEY = 150_270;
/** Ads completed per round: a backlog drains over rounds, each transaction stays short. */
export const ADS_JOB_BATCH = 100;

export interface AdsRound {
  /** False when another process held the lock. */
  ran: boolean;
  completed: number;
  expiredCheckouts: number;
}

export async function runAdsRound(ctx: AppContext): Promise<AdsRound> {
  const now = ctx.clock.now();
  const round = await ctx.db.transaction(async (tx): Promise<AdsRound> => {
    const lock = await tx.execute(sql`select pg_try_advisory_xact_lock(${ADS_JOB_LOCK_KEY}) as locked`);
    // Both drivers (PGlite, node-postgres) answer with `rows`.
    if (!(lock as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked)
      return { ran: false, completed: 0, expiredCheckouts: 0 };
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
    return { ran: true, completed: completed.length, expiredCheckouts: expired.length };
  });
  if (round.completed > 0) {
    ctx.wakeMailWorker();
    ctx.onAdsChanged?.();
  }
  if (round.ran) await processPendingRefunds(ctx);
  return round;
}

export interface AdsWorker {
  stop(): Promise<void>;
}

/** Runs the ads job every minute in this process (as server/mail/worker.ts runs the outbox). */
export function startAdsWorker(ctx: AppContext, pollMs = 60_000): AdsWorker {
  let running: Promise<void> | null = null;
  let stopped = false;
  const round = () => {
    if (stopped || running) return;
    running = runAdsRound(ctx)
      .then(() => undefined)
      .catch((error: unknown) => {
        ctx.log.error({ err: error }, "ads job round failed");
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(round, pollMs);
  timer.unref();
  round();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
