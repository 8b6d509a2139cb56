import { and, asc, eq, gt, isNull, lte } from "drizzle-orm";
import type { AppContext } from "../context";
import { meetups } from "../db/schema";
import { notify } from "../notifications/notify";
import { MEETUP_REMINDER_MS } from "./meetup-rules.shared";

/** A batch of the reminder job: enough for any minute, the rest in the next run at once. */
const REMINDER_BATCH = 100;

/**
 * Decision 0612: the meetup-reminders job: both people of an accepted meetup due within the hour
 * are told once (`reminder_sent_at`). A meetup accepted within its last hour is marked without a
 * reminder: the two just agreed on it. Side effects only: nothing anyone sees depends on it.
 */
export async function sendMeetupReminders(ctx: AppContext): Promise<{ more: boolean }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: meetups.id,
        campusId: meetups.campusId,
        chatId: meetups.chatId,
        postId: meetups.postId,
        dealId: meetups.dealId,
        proposedBy: meetups.proposedBy,
        proposedTo: meetups.proposedTo,
        meetsAt: meetups.meetsAt,
        decidedAt: meetups.decidedAt,
      })
      .from(meetups)
      .where(
        and(
          eq(meetups.state, "accepted"),
          isNull(meetups.reminderSentAt),
          gt(meetups.meetsAt, now),
          lte(meetups.meetsAt, new Date(now.getTime() + MEETUP_REMINDER_MS)),
        ),
      )
      .orderBy(asc(meetups.meetsAt))
      .limit(REMINDER_BATCH)
      .for("update", { skipLocked: true });
    for (const meetup of due) {
      await tx.update(meetups).set({ reminderSentAt: now }).where(eq(meetups.id, meetup.id));
      const agreedLate =
        meetup.decidedAt !== null &&
        meetup.decidedAt.getTime() > meetup.meetsAt.getTime() - MEETUP_REMINDER_MS;
      if (agreedLate) continue;
      for (const [to, actorId] of [
        [meetup.proposedBy, meetup.proposedTo],
        [meetup.proposedTo, meetup.proposedBy],
      ] as const) {
        await notify(tx, ctx, {
          type: "meetup",
          event: "reminder",
          to,
          actorId,
          campusId: meetup.campusId,
          postId: meetup.postId,
          chatId: meetup.chatId,
          meetupId: meetup.id,
          dealId: meetup.dealId,
        });
      }
    }
    return { more: due.length === REMINDER_BATCH };
  });
}
