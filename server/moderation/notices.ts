import { eq } from "drizzle-orm";
import { createElement } from "react";
import { campusOrigin } from "../campuses/campuses";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { type ModerationAction, user } from "../db/schema";
import { enqueueMail } from "../mail/outbox";
import { renderMail } from "../mail/render";
import { ModerationEmail } from "../mail/templates/moderation";
import { notifyModeration } from "../notifications/notify";
import { moderationNoticeHeading } from "../notifications/texts";
import { appendModerationLog } from "../staff/moderation-log";
import type { StaffMember } from "../staff/roles";
import { STANDING_PATH, suspensionPeriod } from "./rules.shared";
import { actorRoleOf } from "./scope";

/** The outbox kind of a moderation notice (decision 0543): written when queued, sent as stored. */
export const MODERATION_MAIL_KIND = "moderation";

/** One staff action as the moderation log records it (decision 0521's row, the conventions of decision 0543). */
export interface StaffActionRecord {
  campusId: string;
  action: ModerationAction;
  targetKind: "post" | "comment" | "message" | "user" | "review";
  targetId: string;
  targetUserId: string | null;
  reasonCode: string | null;
  publicReason: string | null;
  privateNote?: string | null;
  details: { itemId?: string; strikeId?: string; suspendedUntil?: string; days?: number | null };
}

/**
 * Decision 0543: writes the action's log row and, when `tell` is set and there is a student to
 * tell, their notice: the notification (type 'moderation', naming the log row) and the e-mail
 * (what was done, the public reason, the end date, a link to /settings/account/standing on the
 * student's own campus, from the configured hosts). In the caller's transaction, so the action,
 * its record and its notice commit together. Returns the log row's id.
 */
export async function recordStaffAction(
  tx: Queryable,
  ctx: AppContext,
  staff: StaffMember,
  record: StaffActionRecord,
  tell: boolean,
): Promise<string> {
  const at = ctx.clock.now();
  const logId = await appendModerationLog(tx, {
    ...record,
    privateNote: record.privateNote ?? null,
    source: "staff",
    actorId: staff.id,
    actorRole: actorRoleOf(staff),
    at,
  });
  if (!tell || !record.targetUserId) return logId;
  const [student] = await tx
    .select({ email: user.email, campusId: user.campusId })
    .from(user)
    .where(eq(user.id, record.targetUserId))
    .limit(1);
  if (!student) return logId;
  await notifyModeration(tx, ctx, {
    to: record.targetUserId,
    actorId: staff.id,
    campusId: student.campusId,
    moderationLogId: logId,
  });
  const suspendedUntil = record.details.suspendedUntil ?? null;
  const heading = moderationNoticeHeading({ ...record, suspendedUntil });
  const { html, text } = await renderMail(
    createElement(ModerationEmail, {
      campusName: ctx.campuses.get(student.campusId)?.name ?? "Campus",
      heading,
      reasonLabel: record.action === "note" ? "The note" : "The reason",
      reason: record.publicReason,
      until: suspendedUntil ? suspensionPeriod(new Date(suspendedUntil)) : null,
      standingUrl: `${campusOrigin(student.campusId, null, ctx.config)}${STANDING_PATH}`,
    }),
  );
  await enqueueMail(
    tx,
    {
      campusId: student.campusId,
      kind: MODERATION_MAIL_KIND,
      to: student.email,
      subject: heading,
      html,
      text,
    },
    at,
  );
  return logId;
}
