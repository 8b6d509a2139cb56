import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { campuses, moderationItems, posts, reporterRecords, reports, staffRoles } from "../db/schema";
import { announceCampusPagesChanged } from "../realtime/events";
import { appendModerationLog } from "../staff/moderation-log";
import { NEW_AUTHOR_HIDE_FACTOR, REPORT_WEIGHT_FACTOR } from "../trust/levels.shared";
import { recountTrustLevelAt } from "../trust/recount";
import { AUTO_HIDE_PUBLIC_REASON, HIDING_RULES } from "./rules.shared";

/** A reporter's record of decided reports (reporter_records), or none yet. */
export interface ReporterRecord {
  upheld: number;
  dismissed: number;
  muted: boolean;
}

/**
 * Decision 0542: what one report of this reporter weighs. Muted by staff: 0. Fewer than 3 decided
 * reports: 1, like any verified student. Then by accuracy, from 0.5 (every report dismissed) to 1.4
 * (every report upheld): an accurate reporter counts a little more, never as much as two people.
 */
export function reportWeight(record: ReporterRecord | null): number {
  if (record?.muted) return 0;
  const decided = (record?.upheld ?? 0) + (record?.dismissed ?? 0);
  if (!record || decided < HIDING_RULES.accuracyAfter) return HIDING_RULES.newReporterWeight;
  const { lowestWeight, highestWeight } = HIDING_RULES;
  return lowestWeight + ((highestWeight - lowestWeight) * record.upheld) / decided;
}

/**
 * The weight of `reporterId`'s next report, from their record, times their trust level's factor
 * (decision 0662: a New account's report weighs half). The level is recounted first (decision 0660).
 */
export async function reporterWeight(db: Queryable, reporterId: string, now: Date): Promise<number> {
  const level = await recountTrustLevelAt(db, reporterId, now);
  const [record] = await db
    .select({
      upheld: reporterRecords.upheld,
      dismissed: reporterRecords.dismissed,
      muted: reporterRecords.muted,
    })
    .from(reporterRecords)
    .where(eq(reporterRecords.userId, reporterId))
    .limit(1);
  return reportWeight(record ?? null) * REPORT_WEIGHT_FACTOR[level];
}

/** Weights are stored as `real`: three reports of 1.1 must reach 3.3, not fall short by a rounding. */
const WEIGHT_EPSILON = 1e-4;

/**
 * Decision 0542: after a report, the item's weight and distinct reporters are summed again over its
 * undecided reports, and a post or comment is hidden before review when the weight reaches the
 * campus's threshold (two thirds of it for a New author, decision 0662) AND at least 2 distinct students reported it — unless a moderator dismissed its
 * reports once, its author is staff, or it is already hidden or removed. The hide is the post's
 * moderation_state, the item's `hidden`, one 'hide' row of the log (source 'system', no actor), and
 * the campus's cached pages dropped in every process. In the caller's transaction. True when hidden now.
 */
export async function refreshItemAndHide(tx: Queryable, itemId: string, at: Date): Promise<boolean> {
  const open = and(eq(reports.itemId, itemId), isNull(reports.outcome));
  const [item] = await tx
    .update(moderationItems)
    .set({
      weight: sql`coalesce((select sum(${reports.weight}) from ${reports} where ${open}), 0)`,
      reporters: sql`(select count(distinct ${reports.reporterId})::int from ${reports} where ${open})`,
    })
    .where(eq(moderationItems.id, itemId))
    .returning({
      campusId: moderationItems.campusId,
      targetKind: moderationItems.targetKind,
      targetId: moderationItems.targetId,
      targetUserId: moderationItems.targetUserId,
      weight: moderationItems.weight,
      reporters: moderationItems.reporters,
      hidden: moderationItems.hidden,
      dismissedOnce: moderationItems.dismissedOnce,
    });
  if (!item || item.hidden || item.dismissedOnce) return false;
  if (item.targetKind !== "post" && item.targetKind !== "comment") return false;
  if (item.reporters < HIDING_RULES.minReporters) return false;
  const [campus] = await tx
    .select({ threshold: campuses.reportHideThreshold })
    .from(campuses)
    .where(eq(campuses.id, item.campusId))
    .limit(1);
  const campusThreshold = campus?.threshold ?? HIDING_RULES.defaultThreshold;
  // Decision 0662: a New author's item is hidden after fewer reports (the level recounted first).
  const authorLevel = item.targetUserId ? await recountTrustLevelAt(tx, item.targetUserId, at) : null;
  const threshold = authorLevel === 0 ? campusThreshold * NEW_AUTHOR_HIDE_FACTOR : campusThreshold;
  if (item.weight + WEIGHT_EPSILON < threshold) return false;
  // Staff content is never hidden by reports (decision 0542).
  if (item.targetUserId && (await isStaff(tx, item.targetUserId))) return false;

  const hidden = await tx
    .update(posts)
    .set({ moderationState: "hidden" })
    .where(and(eq(posts.id, item.targetId), isNull(posts.moderationState)))
    .returning({ id: posts.id });
  if (hidden.length === 0) return false;
  await tx
    .update(moderationItems)
    .set({ hidden: true, version: sql`${moderationItems.version} + 1` })
    .where(eq(moderationItems.id, itemId));
  await appendModerationLog(tx, {
    campusId: item.campusId,
    actorId: null,
    source: "system",
    actorRole: null,
    action: "hide",
    targetKind: item.targetKind,
    targetId: item.targetId,
    targetUserId: item.targetUserId,
    reasonCode: await leadingReason(tx, itemId),
    publicReason: AUTO_HIDE_PUBLIC_REASON,
    details: { itemId },
    at,
  });
  // NOTIFY is delivered when the transaction commits: no process drops its pages before the hide is visible.
  await announceCampusPagesChanged(tx, item.campusId);
  return true;
}

/** Whether the person holds any staff role: their content is never hidden, reports about them go to site admins. */
export async function isStaff(db: Queryable, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: staffRoles.userId })
    .from(staffRoles)
    .where(eq(staffRoles.userId, userId))
    .limit(1);
  return row !== undefined;
}

/** The reason most of the item's undecided reports give (the earliest such, on a tie). */
async function leadingReason(db: Queryable, itemId: string): Promise<string | null> {
  const [row] = await db
    .select({ reason: reports.reason })
    .from(reports)
    .where(and(eq(reports.itemId, itemId), isNull(reports.outcome)))
    .groupBy(reports.reason)
    .orderBy(desc(count()), sql`min(${reports.createdAt})`)
    .limit(1);
  return row?.reason ?? null;
}
