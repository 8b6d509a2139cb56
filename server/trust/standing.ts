import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Viewer } from "../accounts/viewer";
import { ADMIN_MESSAGES, AdminError, adminNotFound, invalidAdminInput } from "../admin/errors.shared";
import { studentIdSchema } from "../admin/schemas.shared";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { reputations, strikes, user } from "../db/schema";
import { DECISION_LIMITS } from "../moderation/rules.shared";
import { appendModerationLog } from "../staff/moderation-log";
import { requireSiteAdmin } from "../staff/roles";
import { parseInput } from "../validation";
import {
  conditionsFor,
  TRUST_LEVEL_NAMES,
  type TrustCondition,
  type TrustFacts,
  type TrustLevel,
  whatLifts,
} from "./levels.shared";
import { recountTrustLevel } from "./recount";

/**
 * Decision 0663: a student's trust level as the student (settings) and staff (the console's
 * student page) see it: the level, the facts behind it, the next level's conditions met or not,
 * what lifts it, and whether staff locked it. The level is recounted first (one statement,
 * decision 0660), so a level time alone raised is shown as it is.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface TrustStanding {
  level: TrustLevel;
  name: string;
  facts: TrustFacts;
  /** What the current level rests on (met), for staff and the student. */
  reasons: TrustCondition[];
  /** The next level's name and conditions; null at Regular. */
  next: { name: string; conditions: TrustCondition[] } | null;
  whatLifts: string | null;
  locked: { at: Date; byName: string | null } | null;
}

export async function readTrustStanding(
  db: Queryable,
  ctx: Pick<AppContext, "clock">,
  userId: string,
): Promise<TrustStanding | null> {
  const level = await recountTrustLevel(db, ctx, userId);
  const now = ctx.clock.now();
  const [row] = await db
    .select({
      verified: user.verified,
      schoolVerified: user.schoolVerified,
      profileSetUp: user.profileSetUp,
      banned: user.banned,
      createdAt: user.createdAt,
      lockedAt: user.trustLockedAt,
      lockedBy: user.trustLockedBy,
      trades: reputations.tradesCompleted,
      reviews: reputations.reviewCount,
      rating: reputations.rating,
    })
    .from(user)
    .leftJoin(reputations, eq(reputations.userId, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) return null;
  // The newest strike not overruled: one range of strikes_user_created_idx.
  const [strike] = await db
    .select({ createdAt: strikes.createdAt })
    .from(strikes)
    .where(and(eq(strikes.userId, userId), isNull(strikes.overruledAt)))
    .orderBy(desc(strikes.createdAt))
    .limit(1);
  const days = (from: Date) => Math.floor((now.getTime() - new Date(from).getTime()) / DAY_MS);
  const facts: TrustFacts = {
    verified: row.verified,
    schoolVerified: row.schoolVerified,
    profileSetUp: row.profileSetUp,
    banned: row.banned,
    ageDays: days(row.createdAt),
    tradesCompleted: row.trades ?? 0,
    reviewCount: row.reviews ?? 0,
    rating: row.rating,
    daysSinceStrike: strike ? days(strike.createdAt) : null,
  };
  let byName: string | null = null;
  if (row.lockedAt && row.lockedBy) {
    const [actor] = await db.select({ name: user.name }).from(user).where(eq(user.id, row.lockedBy)).limit(1);
    byName = actor?.name ?? null;
  }
  const nextLevel = level < 3 ? ((level + 1) as TrustLevel) : null;
  return {
    level,
    name: TRUST_LEVEL_NAMES[level],
    facts,
    reasons: level === 0 ? [] : conditionsFor(level, facts),
    next:
      nextLevel === null
        ? null
        : { name: TRUST_LEVEL_NAMES[nextLevel], conditions: conditionsFor(nextLevel, facts) },
    whatLifts: row.lockedAt ? null : whatLifts(level),
    locked: row.lockedAt ? { at: row.lockedAt, byName } : null,
  };
}

/** The viewer's own level for /settings/account/trust. */
export async function getOwnTrustStanding(
  ctx: AppContext,
  viewer: Pick<Viewer, "id">,
): Promise<TrustStanding> {
  const standing = await readTrustStanding(ctx.db, ctx, viewer.id);
  if (!standing) throw adminNotFound();
  return standing;
}

/** The viewer's level alone (the 'Trust level' row of /settings/account), recounted first. */
export async function getOwnTrustLevel(
  ctx: AppContext,
  viewer: Pick<Viewer, "id">,
): Promise<{ level: TrustLevel; name: string }> {
  const level = await recountTrustLevel(ctx.db, ctx, viewer.id);
  return { level, name: TRUST_LEVEL_NAMES[level] };
}

/** A site admin's view of a student's level (the console's student page; 404 for anyone else). */
export async function getStudentTrustStanding(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  rawId: unknown,
): Promise<TrustStanding> {
  await requireSiteAdmin(ctx, viewer);
  const parsed = studentIdSchema.safeParse(rawId);
  if (!parsed.success) throw adminNotFound();
  const standing = await readTrustStanding(ctx.db, ctx, parsed.data);
  if (!standing) throw adminNotFound();
  return standing;
}

export const trustLockSchema = z.object({
  studentId: studentIdSchema,
  /** '0'–'3' locks at that level; 'unlock' lets the recount decide again. */
  level: z.enum(["0", "1", "2", "3", "unlock"], { error: "Choose a level" }),
  reason: z
    .string({ error: ADMIN_MESSAGES.reasonRequired })
    .trim()
    .min(1, { error: ADMIN_MESSAGES.reasonRequired, abort: true })
    .max(DECISION_LIMITS.publicReasonMax, { error: ADMIN_MESSAGES.reasonTooLong }),
});
export type TrustLockInput = z.input<typeof trustLockSchema>;

/**
 * Decision 0663: 'Lock at level N' fixes the level (the recount leaves it alone) and 'Unlock'
 * hands it back to the recount, which runs at once. Site admins only (404 otherwise), with a
 * reason, one private row of the staff's log, in one transaction.
 */
export async function setTrustLock(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: TrustLockInput,
): Promise<{ level: TrustLevel; locked: boolean }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(trustLockSchema, input, invalidAdminInput);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [student] = await tx
      .select({
        id: user.id,
        campusId: user.campusId,
        lockedAt: user.trustLockedAt,
        deletedAt: user.deletedAt,
      })
      .from(user)
      .where(eq(user.id, value.studentId))
      .for("update");
    if (!student || student.deletedAt) throw adminNotFound();
    const unlock = value.level === "unlock";
    if (unlock && !student.lockedAt) throw new AdminError("not-applicable", "The level is not locked.");
    if (unlock) {
      await tx.update(user).set({ trustLockedAt: null, trustLockedBy: null }).where(eq(user.id, student.id));
    } else {
      await tx
        .update(user)
        .set({ trustLevel: Number(value.level), trustLockedAt: now, trustLockedBy: admin.id })
        .where(eq(user.id, student.id));
    }
    const level = await recountTrustLevel(tx, ctx, student.id);
    await appendModerationLog(tx, {
      campusId: student.campusId,
      actorId: admin.id,
      source: "staff",
      actorRole: "site_admin",
      action: unlock ? "unlock_trust_level" : "lock_trust_level",
      targetKind: "user",
      targetId: student.id,
      targetUserId: student.id,
      privateNote: value.reason,
      details: { level },
      at: now,
    });
    return { level, locked: !unlock };
  });
}
