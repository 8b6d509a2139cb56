import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Queryable } from "../db/client";
import { bannedEmails, chatMessages, posts, reviews, strikes, user } from "../db/schema";
import { rowsOf } from "../realtime/backlog";
import { recountReputation } from "../trade/reputation";

/**
 * Decision 0543: what the staff's actions do to content and accounts, each one statement in the
 * caller's transaction. A post or comment is a row of `posts`, a message one of `chat_messages`,
 * a review one of `reviews` (decision 0619).
 */

export type ContentKind = "post" | "comment" | "message" | "review";

export function isContentKind(kind: string): kind is ContentKind {
  return kind === "post" || kind === "comment" || kind === "message" || kind === "review";
}

/**
 * Decision 0619: a review removed or restored leaves or rejoins every list, and its subject's
 * reputation is recounted in the same transaction (the summary row never counts a removed one).
 */
async function setReviewRemoved(tx: Queryable, id: string, removed: boolean, clock: Clock): Promise<boolean> {
  const rows = await tx
    .update(reviews)
    .set({ moderationState: removed ? "removed" : null })
    .where(
      and(
        eq(reviews.id, id),
        removed ? isNull(reviews.moderationState) : eq(reviews.moderationState, "removed"),
      ),
    )
    .returning({ subjectId: reviews.subjectId });
  for (const row of rows) await recountReputation(tx, { clock }, row.subjectId);
  return rows.length > 0;
}

/**
 * Removes the content (gone for everyone but staff; restorable). Returns the campus whose
 * visitors' pages change (a post or comment), or null.
 */
export async function removeContent(
  tx: Queryable,
  kind: ContentKind,
  id: string,
  clock: Clock,
): Promise<string | null> {
  if (kind === "review") {
    await setReviewRemoved(tx, id, true, clock);
    return null;
  }
  if (kind === "message") {
    await tx.update(chatMessages).set({ moderationState: "removed" }).where(eq(chatMessages.id, id));
    return null;
  }
  const [row] = await tx
    .update(posts)
    .set({ moderationState: "removed" })
    .where(eq(posts.id, id))
    .returning({ campusId: posts.campusId });
  return row?.campusId ?? null;
}

/** Brings removed content back. Returns whether it was removed, and the campus whose pages change. */
export async function restoreContent(
  tx: Queryable,
  kind: ContentKind,
  id: string,
  clock: Clock,
): Promise<{ restored: boolean; campusId: string | null }> {
  if (kind === "review") return { restored: await setReviewRemoved(tx, id, false, clock), campusId: null };
  if (kind === "message") {
    const rows = await tx
      .update(chatMessages)
      .set({ moderationState: null })
      .where(and(eq(chatMessages.id, id), eq(chatMessages.moderationState, "removed")))
      .returning({ id: chatMessages.id });
    return { restored: rows.length > 0, campusId: null };
  }
  const [row] = await tx
    .update(posts)
    .set({ moderationState: null })
    .where(and(eq(posts.id, id), eq(posts.moderationState, "removed")))
    .returning({ campusId: posts.campusId });
  return { restored: row !== undefined, campusId: row?.campusId ?? null };
}

/** Decision 0542 undone by a Dismiss: a post or comment the reports hid is shown again. Returns its campus. */
export async function unhideContent(tx: Queryable, kind: ContentKind, id: string): Promise<string | null> {
  // Reports hide posts and comments only (decision 0542).
  if (kind === "message" || kind === "review") return null;
  const [row] = await tx
    .update(posts)
    .set({ moderationState: null })
    .where(and(eq(posts.id, id), eq(posts.moderationState, "hidden")))
    .returning({ campusId: posts.campusId });
  return row?.campusId ?? null;
}

/**
 * Suspends the student until `until`, never shortening a longer suspension already running.
 * Returns when the suspension now ends.
 */
export async function suspendUntil(tx: Queryable, userId: string, until: Date): Promise<Date> {
  const [row] = await tx
    .update(user)
    .set({
      suspendedUntil: sql`greatest(coalesce(${user.suspendedUntil}, '-infinity'::timestamptz), ${until.toISOString()}::timestamptz)`,
    })
    .where(eq(user.id, userId))
    .returning({ suspendedUntil: user.suspendedUntil });
  return row?.suspendedUntil ?? until;
}

/** Decision 0543: a Ban refuses the sign-in e-mail at sign-up, stored lower-cased. */
export async function banEmailOf(tx: Queryable, userId: string, campusId: string, reason: string, at: Date) {
  await tx.execute(sql`
    insert into ${bannedEmails} (email, user_id, campus_id, reason, created_at)
    select lower(${user.email}), ${user.id}, ${campusId}, ${reason}, ${at.toISOString()}::timestamptz
    from ${user} where ${user.id} = ${userId}
    on conflict (email) do nothing`);
}

/**
 * Ends the student's suspension and the ban of their address: Lift suspension (decision 0543).
 * Returns whether they were suspended at `now`.
 */
export async function liftSuspension(tx: Queryable, userId: string, now: Date): Promise<boolean> {
  const lifted = await tx
    .update(user)
    .set({ suspendedUntil: null })
    .where(and(eq(user.id, userId), gt(user.suspendedUntil, now)))
    .returning({ id: user.id });
  await tx.delete(bannedEmails).where(eq(bannedEmails.userId, userId));
  return lifted.length > 0;
}

/**
 * Decision 0544: after a strike is overruled, the student stays suspended only as long as
 * another live (not overruled) strike holds, and their address stays banned only while another
 * live Ban does.
 */
export async function recomputeRestriction(
  tx: Queryable,
  userId: string,
  overruledStrikeId: string,
  now: Date,
): Promise<void> {
  const live = and(
    eq(strikes.userId, userId),
    isNull(strikes.overruledAt),
    ne(strikes.id, overruledStrikeId),
  );
  const [held] = await tx
    .select({ until: sql<Date | null>`max(${strikes.suspendedUntil})`.mapWith(strikes.suspendedUntil) })
    .from(strikes)
    .where(and(live, gt(strikes.suspendedUntil, now)));
  await tx
    .update(user)
    .set({ suspendedUntil: held?.until ?? null })
    .where(eq(user.id, userId));
  const [ban] = await tx
    .select({ id: strikes.id })
    .from(strikes)
    .where(and(live, eq(strikes.action, "ban")))
    .limit(1);
  if (!ban) await tx.delete(bannedEmails).where(eq(bannedEmails.userId, userId));
}

/**
 * Decision 0543: the item's undecided reports get their outcome, and each reporter's record
 * counts it (the accuracy that weighs their next reports, decision 0542). One statement.
 * Returns how many reports were decided.
 */
export async function decideReports(
  tx: Queryable,
  itemId: string,
  outcome: "upheld" | "dismissed",
): Promise<number> {
  const upheld = outcome === "upheld" ? 1 : 0;
  const rows = rowsOf<{ count: number | string }>(
    await tx.execute(sql`
      with decided as (
        update reports set outcome = ${outcome} where item_id = ${itemId}::uuid and outcome is null
        returning reporter_id
      ),
      counted as (
        insert into reporter_records (user_id, upheld, dismissed)
        select reporter_id, ${upheld}::int, ${1 - upheld}::int from decided
        on conflict (user_id) do update set
          upheld = reporter_records.upheld + excluded.upheld,
          dismissed = reporter_records.dismissed + excluded.dismissed
        returning user_id
      )
      select count(*) as count from counted`),
  );
  return Number(rows[0]?.count ?? 0);
}
