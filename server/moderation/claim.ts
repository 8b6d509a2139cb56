import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { type ModerationAction, moderationItems, user } from "../db/schema";
import type { StaffMember } from "../staff/roles";
import { DecisionError } from "./decision-errors.shared";
import { MODERATION_MESSAGES, STAFF_DECISION_MESSAGES } from "./rules.shared";

/** 'Dana K.': a decider as other staff read them (decision 0541). */
export function deciderName(person: { firstName: string; lastName: string }): string {
  const initial = person.lastName.trim().charAt(0);
  return initial ? `${person.firstName} ${initial}.` : person.firstName;
}

/**
 * Decision 0541: the version check. The item is decided only if it is still open at the version
 * the moderator saw: one UPDATE … WHERE id = $1 AND version = $2 changes it or nothing, so of two
 * moderators deciding at once the first wins and the second (whose UPDATE waits for the first's
 * commit and then matches no row) is told 'Already handled by {name}', with nothing applied:
 * the claim is the transaction's first write, and the refusal rolls the transaction back.
 * A version moved by new reports (still open) is 'look again'.
 */
export async function claimItem(
  tx: Queryable,
  itemId: string,
  version: number,
  staff: StaffMember,
  decision: ModerationAction,
  now: Date,
): Promise<void> {
  const claimed = await tx
    .update(moderationItems)
    .set({
      state: "decided",
      decidedBy: staff.id,
      decidedAt: now,
      decision,
      // Decision 0541: weight and reporters count undecided reports; deciding decides them all.
      weight: 0,
      reporters: 0,
      hidden: false,
      ...(decision === "dismiss" ? { dismissedOnce: true } : {}),
      version: sql`${moderationItems.version} + 1`,
    })
    .where(
      and(
        eq(moderationItems.id, itemId),
        eq(moderationItems.version, version),
        eq(moderationItems.state, "open"),
      ),
    )
    .returning({ id: moderationItems.id });
  if (claimed.length > 0) return;
  const [current] = await tx
    .select({ state: moderationItems.state, firstName: user.firstName, lastName: user.lastName })
    .from(moderationItems)
    .leftJoin(user, eq(user.id, moderationItems.decidedBy))
    .where(eq(moderationItems.id, itemId))
    .limit(1);
  if (current?.state === "decided") {
    const { firstName, lastName } = current;
    const name =
      firstName !== null && lastName !== null ? deciderName({ firstName, lastName }) : "a moderator";
    throw new DecisionError("already-handled", MODERATION_MESSAGES.alreadyHandled(name));
  }
  throw new DecisionError("item-changed", STAFF_DECISION_MESSAGES.itemChanged);
}
