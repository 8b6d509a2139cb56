import { and, eq, isNull, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { type ChangeSource, campuses, type StaffRole, staffRoles, user } from "../db/schema";
import { STAFF_MESSAGES, StaffError, staffNotFound } from "./errors.shared";
import { appendModerationLog } from "./moderation-log";

/** What the staff functions read and write: the database and the clock, nothing of HTTP. */
export type StaffContext = Pick<AppContext, "db" | "clock">;

/**
 * A staff member's scope (decision 0520): a site admin serves every campus; a campus moderator
 * the campuses of their rows. One person may hold both.
 */
export interface StaffMember {
  id: string;
  siteAdmin: boolean;
  /** The campuses they moderate (beside every campus, for a site admin). */
  moderatedCampusIds: readonly string[];
}

/** The person's staff roles, or null for everyone who holds none. */
export async function getStaffMember(db: Queryable, userId: string): Promise<StaffMember | null> {
  const rows = await db
    .select({ role: staffRoles.role, campusId: staffRoles.campusId })
    .from(staffRoles)
    .where(eq(staffRoles.userId, userId));
  if (rows.length === 0) return null;
  return {
    id: userId,
    siteAdmin: rows.some((row) => row.role === "site_admin"),
    moderatedCampusIds: rows.flatMap((row) =>
      row.role === "campus_moderator" && row.campusId ? [row.campusId] : [],
    ),
  };
}

/** Whether `staff` may act on `campusId`'s items: a site admin anywhere, a moderator on their campuses. */
export function servesCampus(staff: StaffMember, campusId: string): boolean {
  return staff.siteAdmin || staff.moderatedCampusIds.includes(campusId);
}

/**
 * Decision 0520: the one check every staff page and action makes. `campusId` is the campus the
 * request is about (an item's, a log's), or null for a page every staff member has (their queue).
 * Anyone else, signed out included, gets the not-found error: a 404 like any missing page, so
 * nothing tells them the page exists.
 */
export async function requireStaff(
  ctx: StaffContext,
  viewer: Pick<Viewer, "id"> | null,
  campusId: string | null,
): Promise<StaffMember> {
  const staff = viewer ? await getStaffMember(ctx.db, viewer.id) : null;
  if (!staff || (campusId !== null && !servesCampus(staff, campusId))) throw staffNotFound();
  return staff;
}

/** Decision 0520: the site admins' pages (/admin/…): a campus moderator gets the same 404 as anyone. */
export async function requireSiteAdmin(
  ctx: StaffContext,
  viewer: Pick<Viewer, "id"> | null,
): Promise<StaffMember> {
  const staff = await requireStaff(ctx, viewer, null);
  if (!staff.siteAdmin) throw staffNotFound();
  return staff;
}

/** A role and where it applies: `campusId` is null exactly for a site admin. */
export type RoleGrant =
  | { role: "site_admin"; campusId: null }
  | { role: "campus_moderator"; campusId: string };

/** Who or what changes a role: a staff member through the site, or a configured source. */
export type RoleChanger =
  | { source: "staff"; actor: StaffMember }
  | { source: Exclude<ChangeSource, "staff" | "system"> };

function actorOf(changer: RoleChanger): { actorId: string | null; actorRole: StaffRole | null } {
  if (changer.source !== "staff") return { actorId: null, actorRole: null };
  return {
    actorId: changer.actor.id,
    actorRole: changer.actor.siteAdmin ? "site_admin" : "campus_moderator",
  };
}

function roleMatches(userId: string, grant: RoleGrant) {
  return and(
    eq(staffRoles.userId, userId),
    eq(staffRoles.role, grant.role),
    grant.campusId === null ? isNull(staffRoles.campusId) : eq(staffRoles.campusId, grant.campusId),
  );
}

/**
 * Grants a role and logs it (decision 0521), in the caller's transaction. Returns false when the
 * person held it already, which changes nothing, except that an operator's or admin's grant takes
 * over one ADMIN_EMAILS made: the role then stays when the address leaves the list.
 */
export async function grantRole(
  tx: Queryable,
  at: Date,
  userId: string,
  grant: RoleGrant,
  changer: RoleChanger,
): Promise<boolean> {
  const actor = actorOf(changer);
  const inserted = await tx
    .insert(staffRoles)
    .values({
      userId,
      role: grant.role,
      campusId: grant.campusId,
      source: changer.source,
      grantedBy: actor.actorId,
      grantedAt: at,
    })
    .onConflictDoNothing()
    .returning({ id: staffRoles.id });
  let details: Record<string, unknown> = { role: grant.role };
  if (inserted.length === 0) {
    if (changer.source === "config") return false;
    const taken = await tx
      .update(staffRoles)
      .set({ source: changer.source, grantedBy: actor.actorId, grantedAt: at })
      .where(and(roleMatches(userId, grant), eq(staffRoles.source, "config")))
      .returning({ id: staffRoles.id });
    if (taken.length === 0) return false;
    details = { role: grant.role, previousSource: "config" };
  }
  await appendModerationLog(tx, {
    campusId: grant.campusId,
    ...actor,
    source: changer.source,
    action: "grant_role",
    targetKind: "user",
    targetId: userId,
    targetUserId: userId,
    details,
    at,
  });
  return true;
}

/**
 * Takes a role away and logs it (decision 0521), in the caller's transaction. `onlySource` limits
 * it to grants of one source (a start revokes only what ADMIN_EMAILS granted). Returns false when
 * there was nothing to take.
 */
export async function revokeRole(
  tx: Queryable,
  at: Date,
  userId: string,
  grant: RoleGrant,
  changer: RoleChanger,
  onlySource?: ChangeSource,
): Promise<boolean> {
  const deleted = await tx
    .delete(staffRoles)
    .where(
      and(
        roleMatches(userId, grant),
        onlySource === undefined ? undefined : eq(staffRoles.source, onlySource),
      ),
    )
    .returning({ id: staffRoles.id });
  if (deleted.length === 0) return false;
  await appendModerationLog(tx, {
    campusId: grant.campusId,
    ...actorOf(changer),
    source: changer.source,
    action: "revoke_role",
    targetKind: "user",
    targetId: userId,
    targetUserId: userId,
    details: { role: grant.role },
    at,
  });
  return true;
}

/** The account that signs in with `email` (stored in lower case), with what a grant checks. */
export async function findAccountByEmail(
  db: Queryable,
  email: string,
): Promise<{ id: string; verified: boolean; firstName: string; lastName: string } | null> {
  const [row] = await db
    .select({ id: user.id, verified: user.verified, firstName: user.firstName, lastName: user.lastName })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()))
    .limit(1);
  return row ?? null;
}

/**
 * The account a role is granted to, by e-mail: it must exist and have proven the address
 * (decision 0520), so a role never waits on an account someone else might yet verify.
 */
export async function requireStaffCandidate(db: Queryable, email: string, field?: string) {
  const account = await findAccountByEmail(db, email);
  if (!account) throw new StaffError("unknown-email", STAFF_MESSAGES.unknownEmail, field);
  if (!account.verified) throw new StaffError("unverified-email", STAFF_MESSAGES.unverifiedEmail, field);
  return account;
}

/** A campus moderators can serve: one of the schools, not the generic site (decision 0520). */
export async function requireModeratedCampus(db: Queryable, campusId: string, field?: string) {
  const [campus] = await db
    .select({ id: campuses.id, name: campuses.name })
    .from(campuses)
    .where(and(eq(campuses.id, campusId.trim().toLowerCase()), eq(campuses.generic, false)))
    .limit(1);
  if (!campus) throw new StaffError("unknown-campus", STAFF_MESSAGES.unknownCampus, field);
  return campus;
}

/** Used by tests and the command's list: every role, oldest first. */
export async function listStaffRoles(db: Queryable) {
  return db
    .select({
      id: staffRoles.id,
      userId: staffRoles.userId,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      username: user.username,
      img: user.img,
      role: staffRoles.role,
      campusId: staffRoles.campusId,
      source: staffRoles.source,
      grantedAt: staffRoles.grantedAt,
    })
    .from(staffRoles)
    .innerJoin(user, eq(user.id, staffRoles.userId))
    .orderBy(sql`${staffRoles.campusId} nulls first`, staffRoles.grantedAt, staffRoles.id);
}
export type StaffRoleRow = Awaited<ReturnType<typeof listStaffRoles>>[number];
