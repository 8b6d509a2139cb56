import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { UUID_PATTERN } from "../db/ids";
import { moderationItems } from "../db/schema";
import { staffNotFound } from "../staff/errors.shared";
import { type StaffMember, servesCampus } from "../staff/roles";
import { OVERDUE_AFTER_HOURS } from "./rules.shared";

export type ModerationItemRow = typeof moderationItems.$inferSelect;

const HOUR_MS = 60 * 60 * 1000;

/**
 * Decision 0541: the items a staff member sees and acts on. A site admin: every item. A campus
 * moderator: the items of their campuses that are not routed to site admins (scam reports, chat
 * messages, reports about staff). Undefined means no condition.
 */
export function itemsInScope(staff: StaffMember): SQL | undefined {
  if (staff.siteAdmin) return undefined;
  return and(
    inArray(moderationItems.campusId, [...staff.moderatedCampusIds]),
    eq(moderationItems.toAdmins, false),
  );
}

/** itemsInScope for one item already read. */
export function isInScope(
  staff: StaffMember,
  item: Pick<ModerationItemRow, "campusId" | "toAdmins">,
): boolean {
  return servesCampus(staff, item.campusId) && (staff.siteAdmin || !item.toAdmins);
}

/**
 * Decision 0541: the item, when it is in the staff member's scope; otherwise the not-found error,
 * the same answer as for an id that does not exist (a UT moderator sending an OU item's id
 * learns nothing).
 */
export async function requireItemInScope(
  db: Queryable,
  staff: StaffMember,
  itemId: string,
): Promise<ModerationItemRow> {
  if (!UUID_PATTERN.test(itemId)) throw staffNotFound();
  const [item] = await db.select().from(moderationItems).where(eq(moderationItems.id, itemId)).limit(1);
  if (!item || !isInScope(staff, item)) throw staffNotFound();
  return item;
}

/** Decision 0541: an open item waiting longer than OVERDUE_AFTER_HOURS is Overdue. */
export function overdueBefore(now: Date): Date {
  return new Date(now.getTime() - OVERDUE_AFTER_HOURS * HOUR_MS);
}

export function isOverdue(item: Pick<ModerationItemRow, "state" | "openedAt">, now: Date): boolean {
  return item.state === "open" && item.openedAt < overdueBefore(now);
}

/** The role a staff member acts in, for the log (decision 0521): a site admin acts as one. */
export function actorRoleOf(staff: StaffMember): "site_admin" | "campus_moderator" {
  return staff.siteAdmin ? "site_admin" : "campus_moderator";
}
