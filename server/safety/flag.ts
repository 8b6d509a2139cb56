import { and, countDistinct, eq, gt, isNotNull, isNull, lte, ne, or } from "drizzle-orm";
import type { AppContext } from "../context";
import { formatUtcDateTime } from "../dates.shared";
import type { Tx } from "../db/client";
import { chatMembers, chatMessages, safetyRules, user } from "../db/schema";
import { openAutomaticItem } from "../moderation/auto-items";
import { SafetyError } from "./errors";

/**
 * Decision 0653: a sender whose messages drew payment-first or gift-card warnings (the rules
 * that count toward the flag) toward FLAG_RECIPIENTS or more different students within
 * FLAG_WINDOW_HOURS is limited from starting conversations for LIMIT_HOURS and reported to site
 * admins automatically. Counted inside the send's transaction, by the clock, over the sender's
 * warned messages (chat_messages_sender_warned_idx).
 */
export const FLAG_RECIPIENTS = 3;
export const FLAG_WINDOW_HOURS = 24;
export const LIMIT_HOURS = 24;
const HOUR_MS = 3_600_000;

export const SAFETY_FLAG_REASON =
  "Safety flag: asked 3 or more students in 24 hours to pay before meeting or in gift cards. Starting conversations is limited for 24 hours.";

/** Decision 0653: the refusal of a new conversation while limited, with when it ends. */
export function conversationsLimited(until: Date): SafetyError {
  return new SafetyError(
    "conversations-limited",
    `You can't start new conversations until ${formatUtcDateTime(until)}: several students were warned about your messages. Your existing conversations continue.`,
  );
}

/** Counts and, at the threshold, limits the sender and opens the admins' item (see above). */
export async function flagRepeatedWarnings(ctx: AppContext, tx: Tx, senderId: string): Promise<void> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - FLAG_WINDOW_HOURS * HOUR_MS);
  const [counted] = await tx
    .select({ recipients: countDistinct(chatMembers.userId) })
    .from(chatMessages)
    .innerJoin(
      safetyRules,
      and(eq(safetyRules.id, chatMessages.safetyRuleId), eq(safetyRules.countsTowardFlag, true)),
    )
    .innerJoin(
      chatMembers,
      and(eq(chatMembers.chatId, chatMessages.chatId), ne(chatMembers.userId, senderId)),
    )
    .where(
      and(
        eq(chatMessages.senderId, senderId),
        isNotNull(chatMessages.safetyRuleId),
        gt(chatMessages.createdAt, since),
      ),
    );
  if ((counted?.recipients ?? 0) < FLAG_RECIPIENTS) return;
  // Once per limit: a sender already limited is not reported again for every further warning.
  const [limited] = await tx
    .update(user)
    .set({ conversationsLimitedUntil: new Date(now.getTime() + LIMIT_HOURS * HOUR_MS) })
    .where(
      and(
        eq(user.id, senderId),
        or(isNull(user.conversationsLimitedUntil), lte(user.conversationsLimitedUntil, now)),
      ),
    )
    .returning({ campusId: user.campusId });
  if (!limited) return;
  await openAutomaticItem(tx, {
    campusId: limited.campusId,
    userId: senderId,
    autoReason: SAFETY_FLAG_REASON,
    now,
  });
}
