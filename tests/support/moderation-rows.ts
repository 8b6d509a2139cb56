import { eq } from "drizzle-orm";
import { moderationItems, posts, strikes, user } from "../../server/db/schema";
import { appendModerationLog, type ModerationLogEntry } from "../../server/staff/moderation-log";
import type { TestContext } from "./test-context";

/**
 * Rows a moderator's action leaves, written directly, for the tests of what the student and the
 * public read (the standing page, appeals, /modlog) apart from the staff actions that write them.
 */
export interface StrikeRow {
  userId: string;
  campusId?: string;
  action?: "remove" | "warn" | "suspend" | "ban";
  targetKind?: "post" | "comment" | "message" | "user";
  targetId?: string;
  reasonCode?: string;
  publicReason?: string;
  suspendedUntil?: Date | null;
  createdAt?: Date;
  overruledAt?: Date | null;
  /** The strike's queue item is routed to site admins (a scam report, a chat message). */
  toAdmins?: boolean;
}

export async function insertStrike(t: TestContext, row: StrikeRow): Promise<{ id: string; itemId: string }> {
  const campusId = row.campusId ?? "ou";
  const targetKind = row.targetKind ?? "user";
  const targetId = row.targetId ?? row.userId;
  const at = row.createdAt ?? t.clock.now();
  const [item] = await t.ctx.db
    .insert(moderationItems)
    .values({
      campusId,
      targetKind,
      targetId,
      targetUserId: row.userId,
      state: "decided",
      toAdmins: row.toAdmins ?? false,
      openedAt: at,
      decidedAt: at,
      decision: row.action ?? "warn",
    })
    .onConflictDoUpdate({
      target: [moderationItems.targetKind, moderationItems.targetId],
      set: { toAdmins: row.toAdmins ?? false },
    })
    .returning({ id: moderationItems.id });
  if (!item) throw new Error("no item");
  const [strike] = await t.ctx.db
    .insert(strikes)
    .values({
      campusId,
      userId: row.userId,
      itemId: item.id,
      action: row.action ?? "warn",
      targetKind,
      targetId,
      reasonCode: row.reasonCode ?? "spam",
      publicReason: row.publicReason ?? "Posted the same listing five times in an hour.",
      suspendedUntil: row.suspendedUntil ?? null,
      createdAt: at,
      overruledAt: row.overruledAt ?? null,
    })
    .returning({ id: strikes.id });
  if (!strike) throw new Error("no strike");
  if (row.suspendedUntil) {
    await t.ctx.db.update(user).set({ suspendedUntil: row.suspendedUntil }).where(eq(user.id, row.userId));
  }
  if (row.action && row.action !== "warn" && (targetKind === "post" || targetKind === "comment")) {
    await t.ctx.db.update(posts).set({ moderationState: "removed" }).where(eq(posts.id, targetId));
  }
  return { id: strike.id, itemId: item.id };
}

/** A moderation log row as appendModerationLog writes it; a staff action of an OU moderator by default. */
export async function insertLogRow(t: TestContext, entry: Partial<ModerationLogEntry> & { action: string }) {
  await appendModerationLog(t.ctx.db, {
    campusId: "ou",
    actorId: null,
    source: "staff",
    actorRole: "campus_moderator",
    targetKind: "post",
    targetId: crypto.randomUUID(),
    targetUserId: null,
    at: t.clock.now(),
    ...entry,
  });
}
