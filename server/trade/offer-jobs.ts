import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { offers } from "../db/schema";
import { notify } from "../notifications/notify";
import { OFFER_REMINDER_BEFORE_MS } from "./offer-rules.shared";

/**
 * Decision 0601, the offer job: side effects only. An offer reads Expired from the clock whatever
 * this job did; the job sends the reminder 2 hours before the expiry and the expiry notice, once
 * each (the columns it sets), to the offer's recipient, and marks the row expired.
 */
export async function runOfferRound(
  ctx: AppContext,
  limit = 100,
): Promise<{ reminded: number; expired: number }> {
  const now = ctx.clock.now();
  const reminded = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: offers.id })
      .from(offers)
      .where(
        and(
          eq(offers.state, "pending"),
          isNull(offers.reminderSentAt),
          gt(offers.expiresAt, now),
          lte(offers.expiresAt, new Date(now.getTime() + OFFER_REMINDER_BEFORE_MS)),
        ),
      )
      .orderBy(offers.expiresAt)
      .limit(limit)
      .for("update", { skipLocked: true });
    for (const { id } of due) {
      const [offer] = await tx
        .update(offers)
        .set({ reminderSentAt: now })
        .where(eq(offers.id, id))
        .returning();
      if (!offer) continue;
      await notify(tx, ctx, {
        type: "offer",
        event: "expiring",
        to: offer.toUserId,
        actorId: offer.fromUserId,
        campusId: offer.campusId,
        postId: offer.postId,
        chatId: offer.chatId,
        offerId: offer.id,
      });
    }
    return due.length;
  });
  const expired = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: offers.id })
      .from(offers)
      .where(and(eq(offers.state, "pending"), lte(offers.expiresAt, now)))
      .orderBy(offers.expiresAt)
      .limit(limit)
      .for("update", { skipLocked: true });
    for (const { id } of due) {
      const [offer] = await tx
        .update(offers)
        .set({ state: "expired", version: sql`${offers.version} + 1`, expiryNoticeSentAt: now })
        .where(and(eq(offers.id, id), isNull(offers.expiryNoticeSentAt)))
        .returning();
      if (!offer) continue;
      // Both sides learn it lapsed: the sender may make another.
      for (const [to, actor] of [
        [offer.toUserId, offer.fromUserId],
        [offer.fromUserId, offer.toUserId],
      ] as const) {
        await notify(tx, ctx, {
          type: "offer",
          event: "expired",
          to,
          actorId: actor,
          campusId: offer.campusId,
          postId: offer.postId,
          chatId: offer.chatId,
          offerId: offer.id,
        });
      }
    }
    return due.length;
  });
  return { reminded, expired };
}
