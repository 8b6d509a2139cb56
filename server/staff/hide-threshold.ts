import { eq } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { type ChangeSource, campuses, type StaffRole } from "../db/schema";
import { appendModerationLog } from "./moderation-log";

/** Who sets a threshold: the command (no actor) or a site admin on the console. */
export interface ThresholdChanger {
  source: Extract<ChangeSource, "command" | "staff">;
  actorId: string | null;
  actorRole: StaffRole | null;
}

/**
 * Decision 0542: a campus's threshold of report weight that hides a post or comment before review
 * (campuses.report_hide_threshold; the floor of 2 distinct reporters stays whatever it is), with
 * its row of the campus's log, private to staff like role changes. In the caller's transaction;
 * `npm run staff -- hide-threshold` and /admin/campuses/:id both write it here. The weight was
 * checked by the caller (1 to 50).
 */
export async function writeHideThreshold(
  tx: Queryable,
  at: Date,
  campusId: string,
  weight: number,
  changer: ThresholdChanger,
): Promise<void> {
  await tx.update(campuses).set({ reportHideThreshold: weight }).where(eq(campuses.id, campusId));
  await appendModerationLog(tx, {
    campusId,
    actorId: changer.actorId,
    source: changer.source,
    actorRole: changer.actorRole,
    action: "set_hide_threshold",
    targetKind: "campus",
    targetId: campusId,
    targetUserId: null,
    details: { threshold: weight },
    at,
  });
}
