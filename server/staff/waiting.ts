import { type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { moderationItems, staffRoles } from "../db/schema";
import { userEventCtes } from "../realtime/events";
import type { StaffContext, StaffMember } from "./roles";

/** Decision 0523: the live event that tells staff their count of waiting items changed. */
export const STAFF_EVENT = "staff";

/**
 * Decision 0523: the items waiting for `userId` as staff, as a scalar SQL expression, so the
 * shell's one statement (server/notifications/badges.ts) reads it beside the other badges. An
 * item waits while it is open, in the person's scope (decision 0541): every open item for a site
 * admin (moderation_items_open_idx), for a moderator their campuses' open items not routed to
 * site admins (moderation_items_queue_idx). Anyone who is not staff costs one probe of
 * staff_roles' (user_id, campus_id) index and counts 0.
 */
export function waitingItemsOf(userId: string | Placeholder | SQL): SQL<number> {
  return sql<number>`(case
    when not exists (select 1 from ${staffRoles} where ${staffRoles.userId} = ${userId}) then 0
    when exists (select 1 from ${staffRoles} where ${staffRoles.userId} = ${userId} and ${staffRoles.campusId} is null)
      then (select count(*)::int from ${moderationItems} where ${moderationItems.state} = 'open')
    else (select count(*)::int from ${moderationItems}
      where ${moderationItems.state} = 'open' and not ${moderationItems.toAdmins}
        and ${moderationItems.campusId} in (
          select ${staffRoles.campusId} from ${staffRoles} where ${staffRoles.userId} = ${userId}))
  end)`;
}

/** Decision 0523: how many items wait for this staff member (the badge beside their avatar). */
export async function waitingItemCount(ctx: StaffContext, staff: StaffMember): Promise<number> {
  const [row] = await ctx.db.select({ count: waitingItemsOf(staff.id) }).from(sql`(select 1) as one`);
  return Number(row?.count ?? 0);
}

/**
 * Decision 0523: an item of `campusId` started or stopped waiting: each staff member who serves
 * that campus (its moderators and every site admin) gets a live event, in the caller's
 * transaction, and their shell reloads its count. One statement.
 */
export async function announceWaitingItems(tx: Queryable, campusId: string): Promise<void> {
  await tx.execute(sql`
    with staff_source as (
      select distinct ${staffRoles.userId} as user_id, ${STAFF_EVENT}::text as type, '{}'::jsonb as data
      from ${staffRoles}
      where ${staffRoles.campusId} is null or ${staffRoles.campusId} = ${campusId}
    ),
    ${userEventCtes("staff_source")}
    select count(*) from realtime_event`);
}
