import { and, desc, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import { assertCanParticipate, ParticipationRefused } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { moderationItems, reports, user } from "../db/schema";
import { REPORT_REASONS, REPORT_TARGET_KINDS } from "../db/schema/reports";
import { rollingWindowWait, waitText } from "../posts/posting-limits";
import { announceWaitingItems } from "../staff/waiting";
import { closeOffersOfListing } from "../trade/listing-hooks";
import { parseInput } from "../validation";
import { invalidReportInput, ReportError } from "./errors";
import { messageSnapshot, type ReportTarget, resolveReportTarget } from "./report-targets";
import { MODERATION_MESSAGES, REPORT_LIMITS, REPORT_MESSAGES, REPORTED_ALERTS } from "./rules.shared";
import { isStaff, refreshItemAndHide, reporterWeight } from "./weights";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A textarea sends line breaks as CRLF: each counts as one character, as the dialog's counter shows. */
function normaliseComment(value: string | undefined): string | null {
  const text = (value ?? "").replace(/\r\n?/g, "\n").trim();
  return text === "" ? null : text;
}

/**
 * Decision 0540: the report dialog's fields. The comment is plain text (HTML stays text: it is
 * stored and shown as written), trimmed, at most 1,000 characters as PostgreSQL counts them.
 */
export const reportInputSchema = z.object({
  targetKind: z.enum(REPORT_TARGET_KINDS, { error: REPORT_MESSAGES.notFound }),
  targetId: z
    .string({ error: REPORT_MESSAGES.notFound })
    .trim()
    .min(1, REPORT_MESSAGES.notFound)
    .max(200, REPORT_MESSAGES.notFound),
  reason: z.enum(REPORT_REASONS, { error: REPORT_MESSAGES.chooseReason }),
  comment: z
    .string()
    .optional()
    .transform(normaliseComment)
    .refine((text) => text === null || [...text].length <= REPORT_LIMITS.commentMax, {
      message: REPORT_MESSAGES.commentTooLong,
    }),
});
export type ReportInput = z.input<typeof reportInputSchema>;

/** What filing a report answers: the confirmation the reporter sees. */
export interface FiledReport {
  /** 'Post reported. Thanks for letting us know.' (REPORTED_ALERTS), or 'Report updated'. */
  message: string;
  updated: boolean;
  itemId: string;
}

/**
 * Decision 0540: a student reports a post, a comment, a chat message or a member of their campus.
 *
 * - Only a signed-in student with a verified e-mail (ParticipationRefused otherwise), read from the
 *   database under a lock of their row, so one student's reports take turns (decision 0127: throwaway
 *   accounts must not fill the queue or hide anything).
 * - The target must be on their campus and not their own (report-targets.ts).
 * - Reporting the same thing again updates the earlier report (its reason, comment, weight; an
 *   outcome set by a moderator is cleared, which reopens the item) and answers 'Report updated'.
 * - A new report counts against 10 a rolling day (429 with Retry-After, the wait in words).
 * - The thing's moderation item is created or reopened in one statement (INSERT … ON CONFLICT), its
 *   weight summed again, and the reports may hide it before review (weights.ts, decision 0542).
 * - Staff see their count of waiting items change. The reported person is told nothing.
 */
export async function fileReport(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: Readonly<Record<string, unknown>>,
): Promise<FiledReport> {
  if (!viewer) throw new ParticipationRefused({ kind: "sign-in", reason: "report" });
  const value = parseInput(reportInputSchema, input, invalidReportInput);
  return ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const [row] = await tx
      .select({
        id: user.id,
        campusId: user.campusId,
        verified: user.verified,
        schoolVerified: user.schoolVerified,
        profileSetUp: user.profileSetUp,
        suspendedUntil: user.suspendedUntil,
      })
      .from(user)
      .where(eq(user.id, viewer.id))
      .for("update");
    const reporter = row ?? null;
    // Decision 0547: a suspended student cannot report.
    assertCanParticipate(reporter, "report", now);
    const target = await resolveReportTarget(tx, reporter, value.targetKind, value.targetId, now);

    const [earlier] = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(
        and(
          eq(reports.reporterId, reporter.id),
          eq(reports.targetKind, target.kind),
          eq(reports.targetId, target.id),
        ),
      )
      .limit(1);
    if (!earlier) await assertWithinDailyLimit(tx, reporter.id, now);

    const toAdmins =
      value.reason === "scam" || target.kind === "message" || (await isStaff(tx, target.ownerId));
    const itemId = await openItem(tx, target, toAdmins, now);
    const fields = {
      reason: value.reason,
      comment: value.comment,
      weight: await reporterWeight(tx, reporter.id, now),
      snapshot: target.chat ? await messageSnapshot(tx, target.chat) : null,
      itemId,
      updatedAt: now,
    };
    if (earlier) {
      await tx
        .update(reports)
        .set({ ...fields, outcome: null })
        .where(eq(reports.id, earlier.id));
    } else {
      await tx.insert(reports).values({
        ...fields,
        campusId: target.campusId,
        reporterId: reporter.id,
        reportedUserId: target.ownerId,
        targetKind: target.kind,
        targetId: target.id,
        createdAt: now,
      });
    }
    // Decision 0604: a listing hidden by reports closes its open offers.
    if ((await refreshItemAndHide(tx, itemId, now)) && target.kind === "post") {
      await closeOffersOfListing(ctx, tx, target.id);
    }
    // Decision 0523: the campus's staff see their count of waiting items change, live.
    await announceWaitingItems(tx, target.campusId);
    return {
      message: earlier ? MODERATION_MESSAGES.reportUpdated : REPORTED_ALERTS[target.kind],
      updated: earlier !== undefined,
      itemId,
    };
  });
}

/**
 * Decision 0540: at most 10 reports created in a rolling 24 hours (an update of an earlier report
 * is not one). The posting limit's rule (decision 0116): one range read of the reporter's newest
 * reports (reports_reporter_created_idx), and the wait until the 10th newest leaves the day.
 */
async function assertWithinDailyLimit(db: Queryable, reporterId: string, now: Date): Promise<void> {
  const limit = REPORT_LIMITS.perDay;
  const recent = await db
    .select({ createdAt: reports.createdAt })
    .from(reports)
    .where(and(eq(reports.reporterId, reporterId), gt(reports.createdAt, new Date(now.getTime() - DAY_MS))))
    .orderBy(desc(reports.createdAt))
    .limit(limit);
  const waitMs = rollingWindowWait(
    recent.map((row) => row.createdAt),
    limit,
    DAY_MS,
    now.getTime(),
  );
  if (waitMs === null) return;
  throw new ReportError("rate-limited", REPORT_MESSAGES.dailyLimit(limit, waitText(waitMs)), {
    retryAfterSeconds: Math.ceil(waitMs / 1000),
  });
}

/**
 * Decision 0541: the thing's one moderation item, created, or reopened when a moderator had
 * decided it (state 'open', opened now), its version moved on either way. One INSERT … ON CONFLICT
 * … RETURNING: two first reports at once cannot make two items, and no read comes before the write.
 */
async function openItem(tx: Queryable, target: ReportTarget, toAdmins: boolean, now: Date): Promise<string> {
  const [item] = await tx
    .insert(moderationItems)
    .values({
      campusId: target.campusId,
      targetKind: target.kind,
      targetId: target.id,
      targetUserId: target.ownerId,
      toAdmins,
      openedAt: now,
    })
    .onConflictDoUpdate({
      target: [moderationItems.targetKind, moderationItems.targetId],
      set: {
        state: "open",
        openedAt: sql`case when ${moderationItems.state} = 'decided' then excluded.opened_at else ${moderationItems.openedAt} end`,
        toAdmins: sql`${moderationItems.toAdmins} or excluded.to_admins`,
        version: sql`${moderationItems.version} + 1`,
      },
    })
    .returning({ id: moderationItems.id });
  if (!item) throw new Error("moderation item not written");
  return item.id;
}
