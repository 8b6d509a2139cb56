import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { moderationItems } from "../db/schema";
import { announceWaitingItems } from "../staff/waiting";

/**
 * Decision 0650, 0653: an item the product opens itself (a safety flag on a student), for site
 * admins only, with `auto_reason` standing where reporters' reasons go. It is the same item a
 * report on that student would open (one row per target): opened, or reopened when decided,
 * routed to site admins, its version moved on; the campus's staff counts move live.
 */
export async function openAutomaticItem(
  tx: Queryable,
  item: { campusId: string; userId: string; autoReason: string; now: Date },
): Promise<void> {
  await tx
    .insert(moderationItems)
    .values({
      campusId: item.campusId,
      targetKind: "user",
      targetId: item.userId,
      targetUserId: item.userId,
      toAdmins: true,
      autoReason: item.autoReason,
      openedAt: item.now,
    })
    .onConflictDoUpdate({
      target: [moderationItems.targetKind, moderationItems.targetId],
      set: {
        state: "open",
        openedAt: sql`case when ${moderationItems.state} = 'decided' then excluded.opened_at else ${moderationItems.openedAt} end`,
        toAdmins: true,
        autoReason: sql`excluded.auto_reason`,
        version: sql`${moderationItems.version} + 1`,
      },
    });
  await announceWaitingItems(tx, item.campusId);
}
