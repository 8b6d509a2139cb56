import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { announceCampusPagesChanged } from "../realtime/events";
import { requireStaff } from "../staff/roles";
import { recountReviewsBy } from "../trade/reputation";
import { parseInput } from "../validation";
import { DecisionError, invalidDecisionInput } from "./decision-errors.shared";
import {
  type ItemActionInput,
  itemActionSchema,
  type SendNoteInput,
  sendNoteSchema,
} from "./decision-schemas.shared";
import { recordStaffAction } from "./notices";
import { STAFF_DECISION_MESSAGES } from "./rules.shared";
import { type ContentKind, isContentKind, liftSuspension, restoreContent } from "./sanctions";
import { requireItemInScope } from "./scope";

/**
 * Decision 0543: the actions beside a decision, done from an item's page (whose scope they
 * check): Restore removed content, Lift a suspension, and Send a note. None decides the item or
 * gives a strike; each is one transaction with its log row and the student's notice.
 */

type ScopedItem = Awaited<ReturnType<typeof requireItemInScope>>;

/**
 * Restore and Lift alike: the staff member's scope, the input, then in one transaction the
 * item's change (`act` returns the log row's target and the campus whose pages changed, or throws
 * a DecisionError) and its log row with the student's notice; after the commit, every process's
 * cached pages of that campus and the notice's mail.
 */
async function actOnItem(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: ItemActionInput,
  action: "restore" | "lift",
  act: (
    tx: Queryable,
    item: ScopedItem,
  ) => Promise<{ targetKind: ContentKind | "user"; targetId: string; changedCampusId: string | null }>,
): Promise<void> {
  const staff = await requireStaff(ctx, viewer, null);
  const value = parseInput(itemActionSchema, input, invalidDecisionInput);
  const campusId = await ctx.db.transaction(async (tx) => {
    const item = await requireItemInScope(tx, staff, value.itemId);
    const { targetKind, targetId, changedCampusId } = await act(tx, item);
    await recordStaffAction(
      tx,
      ctx,
      staff,
      {
        campusId: item.campusId,
        action,
        targetKind,
        targetId,
        targetUserId: item.targetUserId,
        reasonCode: value.reasonCode,
        publicReason: value.publicReason,
        privateNote: value.privateNote,
        details: { itemId: item.id },
      },
      true,
    );
    return changedCampusId;
  });
  // Decision 0546: what came back returns to every list, cached visitor pages included.
  if (campusId) await announceCampusPagesChanged(ctx.db, campusId);
  ctx.wakeMailWorker();
}

/** Restore: removed content is shown again (its strike stands; an approved appeal overrules it). */
export async function restoreItemContent(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: ItemActionInput,
): Promise<void> {
  await actOnItem(ctx, viewer, input, "restore", async (tx, item) => {
    const kind = item.targetKind;
    if (!isContentKind(kind)) throw new DecisionError("not-applicable", STAFF_DECISION_MESSAGES.notRemoved);
    const restored = await restoreContent(tx, kind, item.targetId, ctx.clock);
    if (!restored.restored) throw new DecisionError("not-applicable", STAFF_DECISION_MESSAGES.notRemoved);
    return { targetKind: kind, targetId: item.targetId, changedCampusId: restored.campusId };
  });
}

/** Lift suspension: the item's student may participate again at once, and a ban's address is freed. */
export async function liftItemSuspension(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: ItemActionInput,
): Promise<void> {
  await actOnItem(ctx, viewer, input, "lift", async (tx, item) => {
    const studentId = item.targetUserId;
    if (!studentId || !(await liftSuspension(tx, studentId, ctx.clock.now()))) {
      throw new DecisionError("not-applicable", STAFF_DECISION_MESSAGES.notSuspended);
    }
    // Decision 0616: a lifted ban's reviews count again.
    await recountReviewsBy(tx, ctx, studentId);
    // The student's listings return to every list.
    return { targetKind: "user", targetId: studentId, changedCampusId: item.campusId };
  });
}

/**
 * Send a note: a friendly word to the item's student, not a strike (decision 0544). Its log row
 * ('note') is private: the public log leaves it out. The note is what the student reads.
 */
export async function sendNoteToStudent(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: SendNoteInput,
): Promise<void> {
  const staff = await requireStaff(ctx, viewer, null);
  const value = parseInput(sendNoteSchema, input, invalidDecisionInput);
  await ctx.db.transaction(async (tx) => {
    const item = await requireItemInScope(tx, staff, value.itemId);
    const studentId = item.targetUserId;
    if (!studentId) throw new DecisionError("not-applicable", STAFF_DECISION_MESSAGES.notForThisItem);
    await recordStaffAction(
      tx,
      ctx,
      staff,
      {
        campusId: item.campusId,
        action: "note",
        targetKind: "user",
        targetId: studentId,
        targetUserId: studentId,
        reasonCode: null,
        publicReason: value.note,
        details: { itemId: item.id },
      },
      true,
    );
  });
  ctx.wakeMailWorker();
}
