import { and, eq } from "drizzle-orm";
import { issueEmailCode } from "../accounts/codes";
import type { Viewer } from "../accounts/viewer";
import { pauseRunningAdsOf } from "../ads/lifecycle";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { session, strikes, user, verificationCodes } from "../db/schema";
import { recordStaffAction } from "../moderation/notices";
import { INDEFINITELY } from "../moderation/rules.shared";
import { banEmailOf, liftSuspension, suspendUntil } from "../moderation/sanctions";
import { announceCampusPagesChanged } from "../realtime/events";
import { syncConfiguredAdminOf } from "../staff/configured-admins";
import { appendModerationLog } from "../staff/moderation-log";
import { requireSiteAdmin, type StaffMember } from "../staff/roles";
import { recountReviewsBy } from "../trade/reputation";
import { recountTrustLevel } from "../trust/recount";
import { parseInput } from "../validation";
import { ADMIN_MESSAGES, AdminError, adminNotFound, invalidAdminInput } from "./errors.shared";
import { type AdminSession, requireRecentSignIn } from "./reauth";
import {
  type BanStudentInput,
  banStudentSchema,
  type LiftStudentInput,
  liftStudentSchema,
  type SignOutStudentInput,
  type StudentActionInput,
  type SuspendStudentInput,
  signOutStudentSchema,
  studentActionSchema,
  suspendStudentSchema,
} from "./schemas.shared";

/**
 * Decision 0561: what a site admin does to an account from its card. Each action checks the
 * role first, then its input, then (destructive ones) the recent sign-in of decision 0563, and is
 * one transaction with its moderation log row. Suspend, Ban and Lift are the moderators' own
 * (server/moderation/sanctions.ts): the same strike, the same notice to the student, the same
 * paused ads; the other actions' rows are private to staff.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where sessions ended here are forgotten at once (better-auth's lookup cache, decision 0350). */
export interface SessionForgetter {
  forget(token: string): void;
}

type Ctx = AppContext;
type Who = Pick<Viewer, "id"> | null;

async function lockStudent(tx: Queryable, studentId: string) {
  const [row] = await tx
    .select({
      id: user.id,
      campusId: user.campusId,
      email: user.email,
      verified: user.verified,
      banned: user.banned,
      suspendedUntil: user.suspendedUntil,
      deletedAt: user.deletedAt,
    })
    .from(user)
    .where(eq(user.id, studentId))
    .limit(1)
    .for("update");
  if (!row) throw adminNotFound();
  notDeleted(row);
  return row;
}

/**
 * Decision 0573: a deleted account is a tombstone holding its names for 30 days. Verifying it
 * would let a Google sign-in with its address link to it; the other actions have nobody to reach.
 */
function notDeleted(student: { deletedAt: Date | null }): void {
  if (student.deletedAt) throw new AdminError("not-applicable", ADMIN_MESSAGES.accountDeleted);
}

function notYourself(admin: StaffMember, studentId: string): void {
  if (admin.id === studentId) throw new AdminError("not-applicable", ADMIN_MESSAGES.notYourself);
}

/** A private row of the staff's log about the student (decision 0521), with the admin as actor. */
async function logPrivate(
  tx: Queryable,
  ctx: Ctx,
  admin: StaffMember,
  student: { id: string; campusId: string },
  action: string,
  reason: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await appendModerationLog(tx, {
    campusId: student.campusId,
    actorId: admin.id,
    source: "staff",
    actorRole: "site_admin",
    action,
    targetKind: "user",
    targetId: student.id,
    targetUserId: student.id,
    privateNote: reason,
    details,
    at: ctx.clock.now(),
  });
}

/** Deletes every session of the student and forgets them here; returns how many ended. */
async function endSessions(tx: Queryable, studentId: string, sessions?: SessionForgetter): Promise<number> {
  const ended = await tx
    .delete(session)
    .where(eq(session.userId, studentId))
    .returning({ token: session.token });
  for (const row of ended) sessions?.forget(row.token);
  return ended.length;
}

/** After a suspension, a ban or a lift: the student's listings leave or rejoin the lists (decision 0546). */
async function afterRestriction(ctx: Ctx, campusId: string): Promise<void> {
  await announceCampusPagesChanged(ctx.db, campusId);
  ctx.onAdsChanged?.();
  ctx.wakeMailWorker();
}

/** Suspend for 1, 3, 7 or 30 days or until lifted (decision 0543), pausing their running ads. */
export async function suspendStudent(
  ctx: Ctx,
  viewer: Who,
  input: SuspendStudentInput,
  own: AdminSession,
): Promise<{ suspendedUntil: Date }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(suspendStudentSchema, input, invalidAdminInput);
  notYourself(admin, value.studentId);
  await requireRecentSignIn(ctx, admin.id, { sessionToken: own.token, password: value.password });
  const now = ctx.clock.now();
  const days = value.days === "lifted" ? null : Number(value.days);
  const result = await ctx.db.transaction(async (tx) => {
    const student = await lockStudent(tx, value.studentId);
    const until = await suspendUntil(
      tx,
      student.id,
      days === null ? INDEFINITELY : new Date(now.getTime() + days * DAY_MS),
    );
    await pauseRunningAdsOf(tx, student.id, now);
    const strikeId = await insertStrike(tx, ctx, admin, student, "suspend", value, until);
    await recordStaffAction(
      tx,
      ctx,
      admin,
      {
        campusId: student.campusId,
        action: "suspend",
        targetKind: "user",
        targetId: student.id,
        targetUserId: student.id,
        reasonCode: value.reasonCode,
        publicReason: value.reason,
        details: { strikeId, suspendedUntil: until.toISOString(), days },
      },
      true,
    );
    return { suspendedUntil: until, campusId: student.campusId };
  });
  await afterRestriction(ctx, result.campusId);
  return { suspendedUntil: result.suspendedUntil };
}

async function insertStrike(
  tx: Queryable,
  ctx: Ctx,
  admin: StaffMember,
  student: { id: string; campusId: string },
  action: "suspend" | "ban",
  value: { reasonCode: string; reason: string },
  until: Date,
): Promise<string | undefined> {
  // Decision 0544: a strike with no item, so the student may appeal it and an overruled strike
  // elsewhere does not end this restriction (recomputeRestriction keeps every live strike's).
  const [strike] = await tx
    .insert(strikes)
    .values({
      campusId: student.campusId,
      userId: student.id,
      itemId: null,
      action,
      targetKind: "user",
      targetId: student.id,
      reasonCode: value.reasonCode,
      publicReason: value.reason,
      suspendedUntil: until,
      actorId: admin.id,
      createdAt: ctx.clock.now(),
    })
    .returning({ id: strikes.id });
  // Decision 0660: a strike holds the trust level below Member.
  await recountTrustLevel(tx, ctx, student.id);
  return strike?.id;
}

/**
 * Ban (decision 0561): the account cannot sign in (`user.banned`, spec 1 §6), its address cannot
 * sign up again (banEmailOf), every session ends, its ads pause, and the strike and notice are a
 * moderator's Ban's.
 */
export async function banStudent(
  ctx: Ctx,
  viewer: Who,
  input: BanStudentInput,
  own: AdminSession,
  sessions?: SessionForgetter,
): Promise<{ sessionsEnded: number }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(banStudentSchema, input, invalidAdminInput);
  notYourself(admin, value.studentId);
  await requireRecentSignIn(ctx, admin.id, { sessionToken: own.token, password: value.password });
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    const student = await lockStudent(tx, value.studentId);
    if (student.banned) throw new AdminError("not-applicable", ADMIN_MESSAGES.alreadyBanned);
    await tx.update(user).set({ banned: true, updatedAt: now }).where(eq(user.id, student.id));
    // Decision 0616: the reviews the student wrote drop out of their subjects' reputations.
    await recountReviewsBy(tx, ctx, student.id);
    const until = await suspendUntil(tx, student.id, INDEFINITELY);
    await banEmailOf(tx, student.id, student.campusId, value.reason, now);
    await pauseRunningAdsOf(tx, student.id, now);
    const strikeId = await insertStrike(tx, ctx, admin, student, "ban", value, until);
    const sessionsEnded = await endSessions(tx, student.id, sessions);
    await recordStaffAction(
      tx,
      ctx,
      admin,
      {
        campusId: student.campusId,
        action: "ban",
        targetKind: "user",
        targetId: student.id,
        targetUserId: student.id,
        reasonCode: value.reasonCode,
        publicReason: value.reason,
        details: { strikeId, suspendedUntil: until.toISOString() },
      },
      true,
    );
    return { sessionsEnded, campusId: student.campusId };
  });
  await afterRestriction(ctx, result.campusId);
  return { sessionsEnded: result.sessionsEnded };
}

/**
 * Lift (decision 0561): ends a suspension and a ban at once (liftSuspension frees the banned
 * address too, as a moderator's Lift does; the console also clears `user.banned`). Not
 * destructive: no password.
 */
export async function liftStudent(ctx: Ctx, viewer: Who, input: LiftStudentInput): Promise<void> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(liftStudentSchema, input, invalidAdminInput);
  const now = ctx.clock.now();
  const campusId = await ctx.db.transaction(async (tx) => {
    const student = await lockStudent(tx, value.studentId);
    const wasSuspended = await liftSuspension(tx, student.id, now);
    if (!wasSuspended && !student.banned) throw new AdminError("not-applicable", ADMIN_MESSAGES.notSuspended);
    if (student.banned)
      await tx.update(user).set({ banned: false, updatedAt: now }).where(eq(user.id, student.id));
    // Decision 0616: lifted, their reviews count again.
    await recountReviewsBy(tx, ctx, student.id);
    await recordStaffAction(
      tx,
      ctx,
      admin,
      {
        campusId: student.campusId,
        action: "lift",
        targetKind: "user",
        targetId: student.id,
        targetUserId: student.id,
        reasonCode: value.reasonCode,
        publicReason: value.reason,
        details: {},
      },
      true,
    );
    return student.campusId;
  });
  await afterRestriction(ctx, campusId);
}

/** Verify e-mail (decision 0561): marked verified, as a right code would (ADMIN_EMAILS applies too). */
export async function verifyStudentEmail(ctx: Ctx, viewer: Who, input: StudentActionInput): Promise<void> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(studentActionSchema, input, invalidAdminInput);
  await ctx.db.transaction(async (tx) => {
    const student = await lockStudent(tx, value.studentId);
    if (student.verified) throw new AdminError("not-applicable", ADMIN_MESSAGES.alreadyVerified);
    await tx.update(user).set({ verified: true, updatedAt: ctx.clock.now() }).where(eq(user.id, student.id));
    await recountTrustLevel(tx, ctx, student.id);
    await tx
      .delete(verificationCodes)
      .where(and(eq(verificationCodes.userId, student.id), eq(verificationCodes.purpose, "email")));
    await syncConfiguredAdminOf(ctx, tx, student.id);
    await logPrivate(tx, ctx, admin, student, "verify_email", value.reason);
  });
}

/** Sign out everywhere (decision 0561): every session of the student ends, here at once and within seconds elsewhere. */
export async function signOutStudentEverywhere(
  ctx: Ctx,
  viewer: Who,
  input: SignOutStudentInput,
  own: AdminSession,
  sessions?: SessionForgetter,
): Promise<{ sessionsEnded: number }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(signOutStudentSchema, input, invalidAdminInput);
  await requireRecentSignIn(ctx, admin.id, { sessionToken: own.token, password: value.password });
  return ctx.db.transaction(async (tx) => {
    const student = await lockStudent(tx, value.studentId);
    const sessionsEnded = await endSessions(tx, student.id, sessions);
    await logPrivate(tx, ctx, admin, student, "sign_out_everywhere", value.reason, { sessionsEnded });
    return { sessionsEnded };
  });
}

/**
 * Resend a code (decision 0561): the sign-up code again, through issueEmailCode, so its limit of
 * 3 code mails an hour holds for the console too; the log row commits with the code.
 */
export async function resendStudentCode(ctx: Ctx, viewer: Who, input: StudentActionInput): Promise<void> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(studentActionSchema, input, invalidAdminInput);
  const [student] = await ctx.db
    .select({ id: user.id, campusId: user.campusId, verified: user.verified, deletedAt: user.deletedAt })
    .from(user)
    .where(eq(user.id, value.studentId))
    .limit(1);
  if (!student) throw adminNotFound();
  notDeleted(student);
  if (student.verified) throw new AdminError("not-applicable", ADMIN_MESSAGES.alreadyVerified);
  const campus = ctx.campuses.get(student.campusId);
  if (!campus) throw adminNotFound();
  await issueEmailCode(ctx, student.id, campus, (tx) =>
    logPrivate(tx, ctx, admin, student, "resend_code", value.reason),
  );
}
