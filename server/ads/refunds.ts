import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { ads, payments } from "../db/schema";
import { DAILY_PRICE_CENTS } from "./schemas.shared";

/** One day, the unit ads are bought and refunded in (spec 2 §9). */
export const DAY_MS = 24 * 60 * 60 * 1000;

type AdTimes = Pick<typeof ads.$inferSelect, "status" | "endTimeAdjusted" | "pausedAt">;

/** Running time left: frozen while paused (spec 2 §4 Resume pushes the end out by the pause). */
export function timeLeftMs(ad: AdTimes, now: Date): number {
  if (!ad.endTimeAdjusted) return 0;
  if (ad.status === "active") return ad.endTimeAdjusted.getTime() - now.getTime();
  if (ad.status === "paused" && ad.pausedAt) return ad.endTimeAdjusted.getTime() - ad.pausedAt.getTime();
  return 0;
}

/** What a refund row may carry beside its amount. */
export interface RefundOptions {
  /** Decision 0560: the console form's key; a second refund with it violates the unique index. */
  idempotencyKey?: string;
}

/**
 * Decision 0272 (beyond the spec, as Carousell and Depop do): the whole days an ad will not
 * run are given back — 500 cents each, never more than was paid and not yet refunded. Written
 * as a pending refund row in the caller's transaction (the ad's status changes in the same
 * one); processPendingRefunds sends it to the provider after the commit.
 */
export async function refundUnusedDays(
  ctx: AppContext,
  tx: Queryable,
  ad: typeof ads.$inferSelect,
  now: Date,
  description: string,
  options: RefundOptions = {},
): Promise<number> {
  const unusedDays = Math.floor(Math.max(0, timeLeftMs(ad, now)) / DAY_MS);
  const amount = Math.min(unusedDays * DAILY_PRICE_CENTS, ad.amountBudgeted - ad.amountRefunded);
  return recordRefund(
    ctx,
    tx,
    ad,
    amount,
    now,
    `${description} (${unusedDays} unused day${unusedDays === 1 ? "" : "s"})`,
    options,
  );
}

/**
 * The one writer of refund rows (decisions 0272, 0560): a pending refund of `amount` cents of the
 * ad's payment, and the ad's refunded total, in the caller's transaction. Refunds of unused days
 * and a site admin's full refund both come here; processPendingRefunds sends it after the
 * commit. Returns the cents recorded (0 when there is nothing to give back or no payment).
 */
export async function recordRefund(
  ctx: AppContext,
  tx: Queryable,
  ad: typeof ads.$inferSelect,
  amount: number,
  now: Date,
  description: string,
  options: RefundOptions = {},
): Promise<number> {
  if (amount <= 0) return 0;
  const [payment] = await tx
    .select({ provider: payments.provider, providerRef: payments.providerRef })
    .from(payments)
    .where(and(eq(payments.adId, ad.id), eq(payments.kind, "payment")))
    .limit(1);
  if (!payment) return 0;
  await tx.insert(payments).values({
    userId: ad.userId,
    campusId: ad.campusId,
    adId: ad.id,
    kind: "refund",
    status: "pending",
    amount,
    provider: payment.provider,
    refundOf: payment.providerRef,
    description,
    idempotencyKey: options.idempotencyKey ?? null,
    createdAt: now,
  });
  await tx
    .update(ads)
    .set({ amountRefunded: sql`${ads.amountRefunded} + ${amount}` })
    .where(eq(ads.id, ad.id));
  ctx.log.info({ adId: ad.id, amount }, "ad refunded");
  return amount;
}

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
