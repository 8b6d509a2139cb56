import { and, eq, isNull } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { reporterRecords, reports } from "../db/schema";
import { staffNotFound } from "../staff/errors.shared";
import { requireStaff } from "../staff/roles";
import { parseInput } from "../validation";
import { invalidDecisionInput } from "./decision-errors.shared";
import { type ReporterMuteInput, reporterMuteSchema } from "./decision-schemas.shared";
import { recordStaffAction } from "./notices";
import { requireItemInScope } from "./scope";
import { refreshItemAndHide, reporterWeight } from "./weights";

/**
 * Decision 0542: staff mute a reporter of an item in their scope, so that student's reports weigh
 * 0 — their undecided reports at once (each item they touch is summed again; what is hidden stays
 * hidden until a moderator decides) and every report they make later — or unmute them, when their
 * reports weigh again as their record says. Only a student who reported this item can be muted from
 * it: staff act on what they were shown. The log row is private (never on the public log) and the
 * student is not told. One transaction.
 */
export async function setReporterMuted(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: ReporterMuteInput,
): Promise<{ muted: boolean }> {
  const staff = await requireStaff(ctx, viewer, null);
  const value = parseInput(reporterMuteSchema, input, invalidDecisionInput);
  await ctx.db.transaction(async (tx) => {
    const item = await requireItemInScope(tx, staff, value.itemId);
    const [reported] = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.itemId, item.id), eq(reports.reporterId, value.reporterId)))
      .limit(1);
    if (!reported) throw staffNotFound();
    await tx
      .insert(reporterRecords)
      .values({ userId: value.reporterId, muted: value.muted })
      .onConflictDoUpdate({ target: reporterRecords.userId, set: { muted: value.muted } });
    const now = ctx.clock.now();
    const weight = await reporterWeight(tx, value.reporterId, now);
    const touched = await tx
      .update(reports)
      .set({ weight })
      .where(and(eq(reports.reporterId, value.reporterId), isNull(reports.outcome)))
      .returning({ itemId: reports.itemId });
    for (const itemId of new Set(touched.map((row) => row.itemId))) {
      await refreshItemAndHide(tx, itemId, now);
    }
    await recordStaffAction(
      tx,
      ctx,
      staff,
      {
        campusId: item.campusId,
        action: value.muted ? "mute_reporter" : "unmute_reporter",
        targetKind: "user",
        targetId: value.reporterId,
        targetUserId: value.reporterId,
        reasonCode: null,
        publicReason: null,
        details: { itemId: item.id },
      },
      false,
    );
  });
  return { muted: value.muted };
}
