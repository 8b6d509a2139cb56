import type { Viewer } from "../accounts/viewer";
import { pauseRunningAdsOf } from "../ads/lifecycle";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { strikes } from "../db/schema";
import { announceCampusPagesChanged } from "../realtime/events";
import { requireStaff, type StaffMember } from "../staff/roles";
import { announceWaitingItems } from "../staff/waiting";
import { closeOffersOfListing } from "../trade/listing-hooks";
import { recountReviewsBy } from "../trade/reputation";
import { recountTrustLevel } from "../trust/recount";
import { parseInput } from "../validation";
import { claimItem } from "./claim";
import { DecisionError, invalidDecisionInput } from "./decision-errors.shared";
import { type DecideItemInput, decideItemSchema } from "./decision-schemas.shared";
import { recordStaffAction } from "./notices";
import { INDEFINITELY, type ItemDecision, STAFF_DECISION_MESSAGES } from "./rules.shared";
import {
  banEmailOf,
  decideReports,
  isContentKind,
  removeContent,
  suspendUntil,
  unhideContent,
} from "./sanctions";
import { type ModerationItemRow, requireItemInScope } from "./scope";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Decision 0543: the decisions each kind of reported item allows (a member has no content to remove). */
export function decisionsFor(kind: ModerationItemRow["targetKind"]): readonly ItemDecision[] {
  if (kind === "appeal") return [];
  if (kind === "user") return ["dismiss", "warn", "suspend", "ban"];
  return ["dismiss", "remove", "warn", "suspend", "ban"];
}

/**
 * Decisions 0541, 0543, 0544: a staff member decides a reported item: Dismiss, Remove, Warn,
 * Suspend or Ban, with a reason category, a public reason and an optional private note. One
 * transaction: the version check first (a stale decision applies nothing and says who decided),
 * then the change, the strike (Remove, Warn, Suspend, Ban), the reports' outcomes and the
 * reporters' records, the log row, the student's notification and e-mail, and the staff's live
 * count. A Suspend or Ban of a post, comment or message removes it too. Items out of the staff
 * member's scope are not found.
 */
export async function decideItem(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: DecideItemInput,
): Promise<{ decision: ItemDecision }> {
  const staff = await requireStaff(ctx, viewer, null);
  const value = parseInput(decideItemSchema, input, invalidDecisionInput);
  const pagesChanged = await ctx.db.transaction(async (tx) => {
    const item = await requireItemInScope(tx, staff, value.itemId);
    if (!decisionsFor(item.targetKind).includes(value.decision)) {
      throw new DecisionError("not-applicable", STAFF_DECISION_MESSAGES.notForThisItem, "decision");
    }
    if (value.decision !== "dismiss" && !item.targetUserId) {
      throw new DecisionError("not-applicable", STAFF_DECISION_MESSAGES.notForThisItem, "decision");
    }
    await claimItem(tx, item.id, value.version, staff, value.decision, ctx.clock.now());
    const changed = await apply(tx, ctx, staff, item, value);
    await announceWaitingItems(tx, item.campusId);
    return changed;
  });
  if (pagesChanged) await announceCampusPagesChanged(ctx.db, pagesChanged);
  // The sponsored slots of every process read the ads again (decision 0360), paused ones gone.
  if (value.decision === "suspend" || value.decision === "ban") ctx.onAdsChanged?.();
  ctx.wakeMailWorker();
  return { decision: value.decision };
}

type Decided = ReturnType<typeof decideItemSchema.parse>;

/** The decision's effects, after the claim. Returns the campus whose visitors' pages changed, or null. */
async function apply(
  tx: Tx,
  ctx: AppContext,
  staff: StaffMember,
  item: ModerationItemRow,
  value: Decided,
): Promise<string | null> {
  const now = ctx.clock.now();
  const kind = item.targetKind as "post" | "comment" | "message" | "user" | "review";
  const base = {
    campusId: item.campusId,
    targetKind: kind,
    targetId: item.targetId,
    targetUserId: item.targetUserId,
    reasonCode: value.reasonCode,
    publicReason: value.publicReason,
    privateNote: value.privateNote,
  };
  if (value.decision === "dismiss") {
    await decideReports(tx, item.id, "dismissed");
    const shownAgain = isContentKind(kind) ? await unhideContent(tx, kind, item.targetId) : null;
    // Decision 0543: only an author whose content the reports hid knew of the reports: they are
    // told it is back; nobody else learns they were reported.
    await recordStaffAction(
      tx,
      ctx,
      staff,
      { ...base, action: "dismiss", details: { itemId: item.id } },
      shownAgain !== null,
    );
    return shownAgain;
  }
  await decideReports(tx, item.id, "upheld");
  const studentId = item.targetUserId as string;
  const contentChanged =
    isContentKind(kind) && value.decision !== "warn"
      ? await removeContent(tx, kind, item.targetId, ctx.clock)
      : null;
  // Decision 0604: a listing removed by moderators closes its open offers.
  if (kind === "post" && contentChanged !== null) await closeOffersOfListing(ctx, tx, item.targetId);
  // Decision 0546: a suspension takes the student's listings out of every list, cached visitor pages too.
  const pagesChanged =
    contentChanged ?? (value.decision === "suspend" || value.decision === "ban" ? item.campusId : null);
  let suspendedUntil: Date | null = null;
  let days: number | null | undefined;
  if (value.decision === "suspend") {
    days = value.days === "lifted" ? null : Number(value.days);
    const until = days === null ? INDEFINITELY : new Date(now.getTime() + days * DAY_MS);
    suspendedUntil = await suspendUntil(tx, studentId, until);
  } else if (value.decision === "ban") {
    suspendedUntil = await suspendUntil(tx, studentId, INDEFINITELY);
    await banEmailOf(tx, studentId, item.campusId, value.publicReason, now);
    // Decision 0616: the reviews the student wrote drop out of their subjects' reputations.
    await recountReviewsBy(tx, ctx, studentId);
  }
  // Decision 0543: a suspended student's running ads pause, spending none of their days.
  if (suspendedUntil) await pauseRunningAdsOf(tx, studentId, now);
  const [strike] = await tx
    .insert(strikes)
    .values({
      campusId: item.campusId,
      userId: studentId,
      itemId: item.id,
      action: value.decision,
      targetKind: kind,
      targetId: item.targetId,
      reasonCode: value.reasonCode,
      publicReason: value.publicReason,
      suspendedUntil,
      actorId: staff.id,
      createdAt: now,
    })
    .returning({ id: strikes.id });
  // Decision 0660: a strike holds the trust level below Member.
  await recountTrustLevel(tx, ctx, studentId);
  await recordStaffAction(
    tx,
    ctx,
    staff,
    {
      ...base,
      action: value.decision,
      details: {
        itemId: item.id,
        ...(strike ? { strikeId: strike.id } : {}),
        ...(suspendedUntil ? { suspendedUntil: suspendedUntil.toISOString() } : {}),
        ...(days !== undefined ? { days } : {}),
      },
    },
    true,
  );
  return pagesChanged;
}
