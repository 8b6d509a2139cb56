import { and, asc, eq } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { campuses, staffRoles } from "../db/schema";
import { parseInput } from "../validation";
import { invalidStaffInput, STAFF_MESSAGES, StaffError } from "./errors.shared";
import {
  grantRole,
  listStaffRoles,
  requireModeratedCampus,
  requireSiteAdmin,
  requireStaffCandidate,
  revokeRole,
  type StaffContext,
  type StaffRoleRow,
} from "./roles";
import { type AppointModeratorInput, appointModeratorSchema, removeModeratorSchema } from "./schemas.shared";

/** A staff member as /admin/moderators lists them. */
export interface StaffListing {
  roleId: string;
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  img: string | null;
  email: string;
  source: StaffRoleRow["source"];
  grantedAt: Date;
}

export interface ModeratorsPage {
  /** Every campus a moderator may serve, by name, for the form's select. */
  campuses: { id: string; name: string; school: string | null }[];
  /** The campuses that have moderators, in the select's order, each with its moderators (oldest first). */
  moderated: { campusId: string; campusName: string; moderators: StaffListing[] }[];
  siteAdmins: StaffListing[];
}

function listing(row: StaffRoleRow): StaffListing {
  return {
    roleId: row.id,
    id: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    username: row.username,
    img: row.img,
    email: row.email,
    source: row.source,
    grantedAt: row.grantedAt,
  };
}

/** Decision 0520: /admin/moderators, for site admins only (404 for anyone else). */
export async function getModeratorsPage(
  ctx: StaffContext,
  viewer: Pick<Viewer, "id"> | null,
): Promise<ModeratorsPage> {
  await requireSiteAdmin(ctx, viewer);
  const [campusRows, roles] = await Promise.all([
    ctx.db
      .select({ id: campuses.id, name: campuses.name, school: campuses.school })
      .from(campuses)
      .where(eq(campuses.generic, false))
      .orderBy(asc(campuses.name)),
    listStaffRoles(ctx.db),
  ]);
  const moderated = campusRows.flatMap((campus) => {
    const moderators = roles
      .filter((row) => row.role === "campus_moderator" && row.campusId === campus.id)
      .map(listing);
    return moderators.length === 0 ? [] : [{ campusId: campus.id, campusName: campus.name, moderators }];
  });
  return {
    campuses: campusRows,
    moderated,
    siteAdmins: roles.filter((row) => row.role === "site_admin").map(listing),
  };
}

/**
 * Decision 0520: a site admin makes the account with this e-mail a moderator of the campus, and
 * the change is logged with them as its actor.
 */
export async function appointModerator(
  ctx: StaffContext,
  viewer: Pick<Viewer, "id"> | null,
  input: AppointModeratorInput,
): Promise<{ name: string; campusName: string }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { campusId, email } = parseInput(appointModeratorSchema, input, invalidStaffInput);
  return ctx.db.transaction(async (tx) => {
    const campus = await requireModeratedCampus(tx, campusId, "campusId");
    const account = await requireStaffCandidate(tx, email, "email");
    const granted = await grantRole(
      tx,
      ctx.clock.now(),
      account.id,
      { role: "campus_moderator", campusId: campus.id },
      { source: "staff", actor: admin },
    );
    if (!granted) throw new StaffError("already-moderator", STAFF_MESSAGES.alreadyModerator, "email");
    return { name: `${account.firstName} ${account.lastName}`, campusName: campus.name };
  });
}

/** Decision 0520: a site admin removes a moderator (the role's row), logged with them as its actor. */
export async function removeModerator(
  ctx: StaffContext,
  viewer: Pick<Viewer, "id"> | null,
  input: { roleId: string },
): Promise<void> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { roleId } = parseInput(removeModeratorSchema, input, invalidStaffInput);
  await ctx.db.transaction(async (tx) => {
    const [role] = await tx
      .select({ userId: staffRoles.userId, campusId: staffRoles.campusId })
      .from(staffRoles)
      .where(and(eq(staffRoles.id, roleId), eq(staffRoles.role, "campus_moderator")))
      .limit(1);
    const removed =
      role?.campusId != null &&
      (await revokeRole(
        tx,
        ctx.clock.now(),
        role.userId,
        { role: "campus_moderator", campusId: role.campusId },
        { source: "staff", actor: admin },
      ));
    if (!removed) throw new StaffError("not-moderator", STAFF_MESSAGES.notModerator);
  });
}
