import { and, eq, isNotNull } from "drizzle-orm";
import { assertCanParticipate, ParticipationRefused } from "../accounts/participation";
import type { Viewer } from "../accounts/viewer";
import type { Queryable } from "../db/client";
import { isUuid } from "../db/ids";
import { chatMembers, chats, user } from "../db/schema";
import { blockBetween } from "./blocks";
import { ChatError, chatNotFound } from "./errors";
import { CHAT_MESSAGES } from "./schemas.shared";

/**
 * Who may act on a chat (spec 2 §6): only the two participants of a chat on the viewer's own
 * campus read, send, like, mark read or delete it; any other id is 'This conversation doesn't
 * exist' (spec 2 §8), whoever sends it. A block in either direction stops new messages.
 */

/**
 * Reading chats needs a signed-in member with a verified e-mail (spec 2 §2 'Auth only');
 * writing also needs the school (spec 2 §5: prompted before messaging).
 */
export function requireReader(viewer: Viewer | null): Viewer {
  if (!viewer || viewer.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "message" });
  if (!viewer.verified) throw new ParticipationRefused({ kind: "verify-email" });
  return viewer;
}

/** Decision 0547: `now` is the clock's, against which a suspension is compared. */
export function requireSender(viewer: Viewer | null, now: Date): Viewer {
  if (viewer?.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "message" });
  assertCanParticipate(viewer, "message", now);
  return viewer;
}

interface ChatRow {
  id: string;
  campusId: string;
  otherUserId: string;
  lastSeq: number;
  /** Decision 0671: the viewer's side in Requests or declined; null in the inbox. */
  requestState: "pending" | "declined" | null;
}

/** The chat if the viewer takes part in it on their own campus, else null (spec 2 §6). */
export async function memberChat(
  db: Queryable,
  viewer: Viewer,
  chatId: string,
  lock = false,
): Promise<ChatRow | null> {
  if (!isUuid(chatId)) return null;
  const query = db
    .select({
      id: chats.id,
      campusId: chats.campusId,
      otherUserId: chatMembers.otherUserId,
      lastSeq: chats.lastSeq,
      requestState: chatMembers.requestState,
    })
    .from(chats)
    .innerJoin(chatMembers, and(eq(chatMembers.chatId, chats.id), eq(chatMembers.userId, viewer.id)))
    .where(and(eq(chats.id, chatId), eq(chats.campusId, viewer.campusId)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: chats }) : await query;
  return row ?? null;
}

export async function requireMemberChat(
  db: Queryable,
  viewer: Viewer,
  chatId: string,
  lock = false,
): Promise<ChatRow> {
  const chat = await memberChat(db, viewer, chatId, lock);
  if (!chat) throw chatNotFound();
  return chat;
}

/**
 * Decision 0230: a block in either direction stops new messages; the words depend on who blocked.
 * Decision 0571: so does the other person's deleted account (the conversation stays, read-only).
 */
export async function assertNotBlocked(db: Queryable, sender: Viewer, otherUserId: string): Promise<void> {
  const [gone] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.id, otherUserId), isNotNull(user.deletedAt)))
    .limit(1);
  if (gone) throw new ChatError("account-deleted", CHAT_MESSAGES.accountDeleted);
  const block = await blockBetween(db, sender.id, otherUserId);
  if (block === "viewer-blocked") throw new ChatError("blocked", CHAT_MESSAGES.youBlocked);
  if (block === "blocked-viewer") throw new ChatError("blocked", CHAT_MESSAGES.blockedYou);
}
