import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { campusOrigins } from "../campuses/campuses";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { campuses, moderationLog, user } from "../db/schema";
import { writeHideThreshold } from "../staff/hide-threshold";
import { appendModerationLog } from "../staff/moderation-log";
import { listStaffRoles, requireSiteAdmin, type StaffMember } from "../staff/roles";
import { parseInput } from "../validation";
import { ADMIN_MESSAGES, AdminError, adminNotFound, invalidAdminInput } from "./errors.shared";
import {
  type CampusDomainInput,
  campusDomainSchema,
  type HideThresholdInput,
  hideThresholdSchema,
} from "./schemas.shared";

/** The campus facts the console reads: configuration (hosts) besides the database. */
export type ConsoleContext = Pick<AppContext, "db" | "clock" | "config" | "campuses">;

/** Decision 0562: the moderation log action that marks a campus's domains as the console's. */
export const SET_DOMAINS_ACTION = "set_domains";

/** Members and school-verified members of every campus, one grouped read. */
async function memberCounts(db: Queryable): Promise<Map<string, { members: number; verified: number }>> {
  const rows = await db
    .select({
      campusId: user.campusId,
      members: sql<number>`count(*)::int`,
      verified: sql<number>`(count(*) filter (where ${user.schoolVerified}))::int`,
    })
    .from(user)
    // Decision 0571: a deleted account's row is a tombstone, nobody's member.
    .where(isNull(user.deletedAt))
    .groupBy(user.campusId);
  return new Map(rows.map((row) => [row.campusId, { members: row.members, verified: row.verified }]));
}

/** docs/contract.md 'Campuses and hosts': the addresses the campus answers on, from configuration. */
function hostsOf(ctx: ConsoleContext, campusId: string): string[] {
  return campusOrigins(campusId, ctx.config).map((origin) => new URL(origin).host);
}

/** Decision 0562: /admin/campuses: every school with its hosts, domains, privacy, members and moderators. */
export async function getCampusesPage(ctx: ConsoleContext, viewer: Pick<Viewer, "id"> | null) {
  await requireSiteAdmin(ctx, viewer);
  const [rows, counts, roles] = await Promise.all([
    ctx.db.select().from(campuses).where(eq(campuses.generic, false)).orderBy(asc(campuses.name)),
    memberCounts(ctx.db),
    listStaffRoles(ctx.db),
  ]);
  return {
    campuses: rows.map((campus) => ({
      id: campus.id,
      name: campus.name,
      school: campus.school,
      domains: campus.domains,
      privacy: campus.privacy,
      reportHideThreshold: campus.reportHideThreshold,
      hosts: hostsOf(ctx, campus.id),
      members: counts.get(campus.id)?.members ?? 0,
      verifiedMembers: counts.get(campus.id)?.verified ?? 0,
      moderators: roles.filter((role) => role.role === "campus_moderator" && role.campusId === campus.id)
        .length,
    })),
  };
}

/** Decision 0562: one campus, with its moderators and its configuration changes. */
export async function getCampusDetail(
  ctx: ConsoleContext,
  viewer: Pick<Viewer, "id"> | null,
  rawId: unknown,
) {
  await requireSiteAdmin(ctx, viewer);
  if (typeof rawId !== "string" || rawId.length > 40) throw adminNotFound();
  const [campus] = await ctx.db
    .select()
    .from(campuses)
    .where(and(eq(campuses.id, rawId), eq(campuses.generic, false)))
    .limit(1);
  if (!campus) throw adminNotFound();
  const [counts, roles, changes] = await Promise.all([
    ctx.db
      .select({
        members: sql<number>`count(*)::int`,
        verified: sql<number>`(count(*) filter (where ${user.schoolVerified}))::int`,
      })
      .from(user)
      .where(and(eq(user.campusId, campus.id), isNull(user.deletedAt))),
    listStaffRoles(ctx.db),
    ctx.db
      .select({
        id: moderationLog.id,
        action: moderationLog.action,
        details: moderationLog.details,
        source: moderationLog.source,
        createdAt: moderationLog.createdAt,
      })
      .from(moderationLog)
      .where(and(eq(moderationLog.targetKind, "campus"), eq(moderationLog.campusId, campus.id)))
      .orderBy(desc(moderationLog.createdAt))
      .limit(10),
  ]);
  return {
    campus: {
      id: campus.id,
      name: campus.name,
      school: campus.school,
      domains: campus.domains,
      privacy: campus.privacy,
      reportHideThreshold: campus.reportHideThreshold,
      hosts: hostsOf(ctx, campus.id),
      members: counts[0]?.members ?? 0,
      verifiedMembers: counts[0]?.verified ?? 0,
    },
    moderators: roles
      .filter((role) => role.role === "campus_moderator" && role.campusId === campus.id)
      .map((role) => ({
        roleId: role.id,
        firstName: role.firstName,
        lastName: role.lastName,
        email: role.email,
        grantedAt: role.grantedAt,
      })),
    changes,
  };
}

async function lockCampus(tx: Queryable, campusId: string) {
  const [campus] = await tx
    .select({ id: campuses.id, name: campuses.name, domains: campuses.domains })
    .from(campuses)
    .where(and(eq(campuses.id, campusId), eq(campuses.generic, false)))
    .limit(1)
    .for("update");
  if (!campus) throw adminNotFound();
  return campus;
}

async function logDomains(
  tx: Queryable,
  ctx: ConsoleContext,
  admin: StaffMember,
  campusId: string,
  change: { added?: string; removed?: string; domains: string[] },
): Promise<void> {
  await appendModerationLog(tx, {
    campusId,
    actorId: admin.id,
    source: "staff",
    actorRole: "site_admin",
    action: SET_DOMAINS_ACTION,
    targetKind: "campus",
    targetId: campusId,
    targetUserId: null,
    details: change,
    at: ctx.clock.now(),
  });
}

/**
 * Decision 0562: one domain added to or removed from a campus under its lock: `next` checks the
 * change and gives the new list; the list is written, logged, and this process's campus directory
 * reads it again at once.
 */
async function editCampusDomains(
  ctx: ConsoleContext,
  viewer: Pick<Viewer, "id"> | null,
  input: CampusDomainInput,
  next: (
    tx: Queryable,
    current: string[],
    domain: string,
  ) => Promise<{ domains: string[]; change: { added: string } | { removed: string } }>,
): Promise<{ domain: string }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { campusId, domain } = parseInput(campusDomainSchema, input, invalidAdminInput);
  await ctx.db.transaction(async (tx) => {
    const campus = await lockCampus(tx, campusId);
    const { domains, change } = await next(tx, campus.domains, domain);
    await tx.update(campuses).set({ domains }).where(eq(campuses.id, campus.id));
    await logDomains(tx, ctx, admin, campus.id, { ...change, domains });
  });
  await ctx.campuses.refresh();
  return { domain };
}

/**
 * Decision 0562: adds a school e-mail domain to a campus. A domain is a domain (DOMAIN_PATTERN);
 * one campus's domain is no other's. Logged; every later start keeps the console's list
 * (seedCampuses).
 */
export function addCampusDomain(
  ctx: ConsoleContext,
  viewer: Pick<Viewer, "id"> | null,
  input: CampusDomainInput,
): Promise<{ domain: string }> {
  return editCampusDomains(ctx, viewer, input, async (tx, current, domain) => {
    if (current.includes(domain))
      throw new AdminError("domain-taken", ADMIN_MESSAGES.domainPresent, "domain");
    const [other] = await tx
      .select({ id: campuses.id })
      .from(campuses)
      .where(sql`${domain} = any(${campuses.domains})`)
      .limit(1);
    if (other) throw new AdminError("domain-taken", ADMIN_MESSAGES.domainTaken, "domain");
    return { domains: [...current, domain], change: { added: domain } };
  });
}

/** Decision 0562: removes a domain; a campus keeps at least one. Logged. */
export function removeCampusDomain(
  ctx: ConsoleContext,
  viewer: Pick<Viewer, "id"> | null,
  input: CampusDomainInput,
): Promise<{ domain: string }> {
  return editCampusDomains(ctx, viewer, input, async (_tx, current, domain) => {
    if (!current.includes(domain)) throw adminNotFound();
    if (current.length <= 1) throw new AdminError("last-domain", ADMIN_MESSAGES.lastDomain, "domain");
    return { domains: current.filter((d) => d !== domain), change: { removed: domain } };
  });
}

/** Decision 0562: the report threshold, written as `npm run staff -- hide-threshold` writes it, with the admin as actor. */
export async function setCampusHideThreshold(
  ctx: ConsoleContext,
  viewer: Pick<Viewer, "id"> | null,
  input: HideThresholdInput,
): Promise<{ threshold: number }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { campusId, threshold } = parseInput(hideThresholdSchema, input, invalidAdminInput);
  await ctx.db.transaction(async (tx) => {
    const campus = await lockCampus(tx, campusId);
    await writeHideThreshold(tx, ctx.clock.now(), campus.id, threshold, {
      source: "staff",
      actorId: admin.id,
      actorRole: "site_admin",
    });
  });
  await ctx.campuses.refresh();
  return { threshold };
}
