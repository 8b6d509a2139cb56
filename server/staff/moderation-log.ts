import type { Queryable } from "../db/client";
import { type ChangeSource, moderationLog, type StaffRole } from "../db/schema";

/** One entry of the moderation log, as an action writes it (decision 0521). */
export interface ModerationLogEntry {
  /** The campus whose log shows it; null for a change that is no campus's (a site admin's role). */
  campusId: string | null;
  /** The staff member who acted, when `source` is `staff`. */
  actorId: string | null;
  source: ChangeSource;
  /** The acting staff member's role at that moment. */
  actorRole: StaffRole | null;
  action: string;
  targetKind: string;
  targetId: string;
  targetUserId: string | null;
  reasonCode?: string | null;
  publicReason?: string | null;
  privateNote?: string | null;
  details?: Record<string, unknown>;
  /** From ctx.clock (decision 0481), never the database's now(). */
  at: Date;
}

/**
 * Decision 0521: the only writer of the moderation log, called inside the transaction of the
 * change it records, so a change and its row commit together or not at all. Rows are never
 * updated or deleted. Returns the row's id (a notification names it, decision 0543).
 */
export async function appendModerationLog(tx: Queryable, entry: ModerationLogEntry): Promise<string> {
  const [row] = await tx
    .insert(moderationLog)
    .values({
      campusId: entry.campusId,
      actorId: entry.actorId,
      source: entry.source,
      actorRole: entry.actorRole,
      action: entry.action,
      targetKind: entry.targetKind,
      targetId: entry.targetId,
      targetUserId: entry.targetUserId,
      reasonCode: entry.reasonCode ?? null,
      publicReason: entry.publicReason ?? null,
      privateNote: entry.privateNote ?? null,
      details: entry.details ?? {},
      createdAt: entry.at,
    })
    .returning({ id: moderationLog.id });
  if (!row) throw new Error("appendModerationLog: no row written");
  return row.id;
}
