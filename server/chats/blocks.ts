import {
  type AnyColumn,
  and,
  desc,
  eq,
  or,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { ParticipationRefused } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { chatMembers, notifications, user, userBlocks } from "../db/schema";
import { publishUserEvent } from "../realtime/events";
import { ChatError } from "./errors";
import { CHAT_MESSAGES } from "./schemas.shared";

/**
 * Blocks (decision 0230; beyond the spec): a member blocks another from the chat
 * header or the profile. Either direction stops new conversations and messages between the
 * two; an existing chat stays readable. Blocks are rows, listed in settings with Unblock.
 * Decision 0462: either direction also stops comments on each other's posts and
 * comments, notifications between the two, and hides each from the other's threads and
 * searches (people and posts).
 */

/**
 * Decision 0462: true when no block stands between the viewer and the person in `personColumn`,
 * either way. Two NOT EXISTS, each one probe of user_blocks' primary key (blocker_id,
 * blocked_id); only signed-in readers' queries carry it, never a visitor's.
 */
export function noBlockBetween(
  viewerId: string | Placeholder | SQLWrapper,
  personColumn: AnyColumn | SQLWrapper,
): SQL {
  return sql`(not exists (select 1 from user_blocks where blocker_id = ${viewerId} and blocked_id = ${personColumn})
    and not exists (select 1 from user_blocks where blocker_id = ${personColumn} and blocked_id = ${viewerId}))`;
}

/** How two people stand: who blocked whom, from `viewerId`'s side (a block both ways reads as the viewer's). */
export type BlockState = "none" | "viewer-blocked" | "blocked-viewer";

export async function blockBetween(db: Queryable, viewerId: string, otherId: string): Promise<BlockState> {
  const rows = await db
    .select({ blockerId: userBlocks.blockerId })
    .from(userBlocks)
    .where(
      or(
        and(eq(userBlocks.blockerId, viewerId), eq(userBlocks.blockedId, otherId)),
        and(eq(userBlocks.blockerId, otherId), eq(userBlocks.blockedId, viewerId)),
      ),
    );
  if (rows.some((row) => row.blockerId === viewerId)) return "viewer-blocked";
  return rows.length > 0 ? "blocked-viewer" : "none";
}

function requireMember(viewer: Viewer | null): Viewer {
  if (!viewer || viewer.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "message" });
  if (!viewer.verified) throw new ParticipationRefused({ kind: "verify-email" });
  return viewer;
}

/** Tells both people's open chat screens that the composer changed (decision 0210: ids only). */
async function announce(db: Queryable, a: string, b: string): Promise<void> {
  const [chat] = await db
    .select({ chatId: chatMembers.chatId })
    .from(chatMembers)
    .where(and(eq(chatMembers.userId, a), eq(chatMembers.otherUserId, b)))
    .limit(1);
  if (!chat) return;
  for (const userId of [a, b].sort()) {
    await publishUserEvent(db, userId, { type: "chat", data: { chatId: chat.chatId, kind: "blocked" } });
  }
}

/** Decision 0462: whether a block stands between `viewerId` and any of `otherIds`, either way. */
export async function blockedWithAny(
  db: Queryable,
  viewerId: string,
  otherIds: readonly string[],
): Promise<boolean> {
  const others = [...new Set(otherIds)].filter((id) => id !== viewerId);
  for (const other of others) {
    if ((await blockBetween(db, viewerId, other)) !== "none") return true;
  }
  return false;
}

/** Whether the viewer blocked `userId` (the profile menu's Block / Unblock). */
export async function viewerBlocked(
  ctx: AppContext,
  viewer: Viewer | null,
  userId: string,
): Promise<boolean> {
  if (!viewer || viewer.id === userId) return false;
  return (await blockBetween(ctx.db, viewer.id, userId)) === "viewer-blocked";
}

/** Blocks `blockedId` (someone of the viewer's campus); blocking twice is one block. */
export async function blockUser(ctx: AppContext, viewer: Viewer | null, blockedId: string): Promise<void> {
  const member = requireMember(viewer);
  if (blockedId === member.id) throw new ChatError("forbidden", CHAT_MESSAGES.cannotBlockSelf);
  const [target] = await ctx.db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.id, blockedId), eq(user.campusId, member.campusId)))
    .limit(1);
  if (!target) throw new ChatError("user-not-found", CHAT_MESSAGES.userNotFound);
  await ctx.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(userBlocks)
      .values({ blockerId: member.id, blockedId: target.id, createdAt: ctx.clock.now() })
      .onConflictDoNothing()
      .returning({ blockedId: userBlocks.blockedId });
    if (inserted.length > 0) {
      // Decision 0462: what each was told of the other goes from both lists (and their badges).
      await tx
        .delete(notifications)
        .where(
          or(
            and(eq(notifications.userId, member.id), eq(notifications.actorId, target.id)),
            and(eq(notifications.userId, target.id), eq(notifications.actorId, member.id)),
          ),
        );
      await announce(tx, member.id, target.id);
    }
  });
}

/** Lifts the viewer's block of `blockedId` (nothing when there is none). */
export async function unblockUser(ctx: AppContext, viewer: Viewer | null, blockedId: string): Promise<void> {
  const member = requireMember(viewer);
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(userBlocks)
      .where(and(eq(userBlocks.blockerId, member.id), eq(userBlocks.blockedId, blockedId)))
      .returning({ blockedId: userBlocks.blockedId });
    if (removed.length > 0) await announce(tx, member.id, blockedId);
  });
}

export interface BlockedPerson {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  img: string | null;
  blockedAt: Date;
}

/** Decision 0230: the settings list, newest block first (user_blocks_list_idx); at most `limit`. */
export async function listBlockedUsers(
  ctx: AppContext,
  viewer: Viewer | null,
  limit = 200,
): Promise<BlockedPerson[]> {
  const member = requireMember(viewer);
  return ctx.db
    .select({
      id: user.id,
      username: user.username,
      firstName: user.firstName,
      lastName: user.lastName,
      img: user.img,
      blockedAt: userBlocks.createdAt,
    })
    .from(userBlocks)
    .innerJoin(user, eq(user.id, userBlocks.blockedId))
    .where(eq(userBlocks.blockerId, member.id))
    .orderBy(desc(userBlocks.createdAt), desc(userBlocks.blockedId))
    .limit(Math.min(Math.max(1, limit), 500));
}
