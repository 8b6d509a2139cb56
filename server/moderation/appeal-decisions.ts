import { eq } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { appeals, strikes } from "../db/schema";
import { announceCampusPagesChanged } from "../realtime/events";
import { staffNotFound } from "../staff/errors.shared";
import { requireStaff, type StaffMember } from "../staff/roles";
import { announceWaitingItems } from "../staff/waiting";
import { recountTrustLevel } from "../trust/recount";
import { parseInput } from "../validation";
import { claimItem } from "./claim";
import { DecisionError, invalidDecisionInput } from "./decision-errors.shared";
import { type DecideAppealInput, decideAppealSchema } from "./decision-schemas.shared";
import { recordStaffAction } from "./notices";
import { STAFF_DECISION_MESSAGES } from "./rules.shared";
import { isContentKind, recomputeRestriction, restoreContent } from "./sanctions";
import { type ModerationItemRow, requireItemInScope } from "./scope";

export type StrikeRow = typeof strikes.$inferSelect;

/** The appeal an item of kind 'appeal' stands for, with its strike; null when it is not one. */
export async function appealOfItem(db: Queryable, item: Pick<ModerationItemRow, "targetKind" | "targetId">) {
  if (item.targetKind !== "appeal") return null;
  const [row] = await db
    .select({ appeal: appeals, strike: strikes })
    .from(appeals)
    .innerJoin(strikes, eq(strikes.id, appeals.strikeId))
    .where(eq(appeals.id, item.targetId))
    .limit(1);
  return row ?? null;
}

/** Decision 0544: whoever made the strike's decision may not decide its appeal. */
export function mayDecideAppeal(staff: Pick<StaffMember, "id">, strike: Pick<StrikeRow, "actorId">): boolean {
  return strike.actorId !== staff.id;
}

/**
 * Decision 0544: a staff member (not the strike's actor) approves or rejects an appeal from the
 * queue, with the reason the student reads. Approve: the strike is overruled, its content
 * restored, its suspension lifted unless another live strike still holds one (and its ban's
 * address freed unless another live Ban stands). Reject: the strike stands. Either way the
 * student is told, in the one transaction of the version check, the log row and the notice.
 */
export async function decideAppeal(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: DecideAppealInput,
): Promise<{ decision: "approve" | "reject" }> {
  const staff = await requireStaff(ctx, viewer, null);
  const value = parseInput(decideAppealSchema, input, invalidDecisionInput);
  const pagesChanged = await ctx.db.transaction(async (tx) => {
    const item = await requireItemInScope(tx, staff, value.itemId);
    const found = await appealOfItem(tx, item);
    if (!found) throw staffNotFound();
    const { appeal, strike } = found;
    if (!mayDecideAppeal(staff, strike)) {
      throw new DecisionError("own-decision", STAFF_DECISION_MESSAGES.ownDecision);
    }
    const now = ctx.clock.now();
    const action = value.decision === "approve" ? "approve_appeal" : "reject_appeal";
    await claimItem(tx, item.id, value.version, staff, action, now);
    await tx
      .update(appeals)
      .set({
        status: value.decision === "approve" ? "approved" : "rejected",
        decidedBy: staff.id,
        decidedAt: now,
        decisionReason: value.publicReason,
      })
      .where(eq(appeals.id, appeal.id));
    let changed: string | null = null;
    if (value.decision === "approve") {
      await tx.update(strikes).set({ overruledAt: now }).where(eq(strikes.id, strike.id));
      // Decision 0660: an overruled strike no longer holds the trust level down.
      await recountTrustLevel(tx, ctx, strike.userId);
      if (isContentKind(strike.targetKind)) {
        changed = (await restoreContent(tx, strike.targetKind, strike.targetId, ctx.clock)).campusId;
      }
      if (strike.suspendedUntil) {
        await recomputeRestriction(tx, strike.userId, strike.id, now);
        // Decision 0546: the student's listings return to every list, cached visitor pages included.
        changed ??= strike.campusId;
      }
    }
    await recordStaffAction(
      tx,
      ctx,
      staff,
      {
        campusId: item.campusId,
        action,
        targetKind: strike.targetKind,
        targetId: strike.targetId,
        targetUserId: strike.userId,
        reasonCode: strike.reasonCode,
        publicReason: value.publicReason,
        privateNote: value.privateNote,
        details: { itemId: item.id, strikeId: strike.id },
      },
      true,
    );
    await announceWaitingItems(tx, item.campusId);
    return changed;
  });
  if (pagesChanged) await announceCampusPagesChanged(ctx.db, pagesChanged);
  ctx.wakeMailWorker();
  return { decision: value.decision };
}
