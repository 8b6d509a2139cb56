import { and, count, eq, isNull, lt, or, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { chatMembers } from "../db/schema";
import { markChatNotificationsRead } from "../notifications/notifications";
import { requireMemberChat, requireReader } from "./access";
import { publishChatEvent } from "./chat-events";

/** What each participant has read (decision 0231), and the Messages badge's count of unread chats. */

/**
 * spec 2 §4 'Chat': opening a chat marks it read for the viewer, up to its latest message
 * (decision 0231), and its message, message-like and new-chat notifications with it (decision
 * 0455: one message is cleared once). Tells both participants when the chat's read
 * state changed (the other sees 'Seen'), the viewer alone when only notifications did (their
 * other tabs read the badges again). True when anything changed.
 */
export async function markChatRead(ctx: AppContext, viewer: Viewer | null, chatId: string): Promise<boolean> {
  const reader = requireReader(viewer);
  await requireMemberChat(ctx.db, reader, chatId);
  return ctx.db.transaction(async (tx) => {
    const chat = await requireMemberChat(tx, reader, chatId, true);
    // Decision 0671: opening a request neither reads it (no 'Seen' for the sender) nor accepts it.
    if (chat.requestState !== null) return false;
    const changed = await tx
      .update(chatMembers)
      .set({ unread: false, lastReadSeq: chat.lastSeq })
      .where(
        and(
          eq(chatMembers.chatId, chat.id),
          eq(chatMembers.userId, reader.id),
          or(eq(chatMembers.unread, true), lt(chatMembers.lastReadSeq, chat.lastSeq)),
        ),
      )
      .returning({ chatId: chatMembers.chatId });
    const notificationsRead = await markChatNotificationsRead(tx, reader.id, chat.id);
    if (changed.length === 0 && notificationsRead === 0) return false;
    const told = changed.length > 0 ? [reader.id, chat.otherUserId] : [reader.id];
    await publishChatEvent(tx, told, { chatId: chat.id, kind: "read" });
    return true;
  });
}

/** spec 1 §2, spec 2 §7 'Unread chats … (count)': the badge of the Messages entries. */
export async function countUnreadChats(ctx: AppContext, viewer: Viewer | null): Promise<number> {
  if (!viewer) return 0;
  const [row] = await ctx.db
    .select({ n: count() })
    .from(chatMembers)
    .where(unreadChatsOf(viewer.id, viewer.campusId));
  return row?.n ?? 0;
}

/**
 * The rows countUnreadChats counts (chat_members of the user on the campus, unread, in the inbox:
 * decision 0671 keeps Requests and declined conversations out); the shell's badges read them beside others.
 */
export function unreadChatsOf(userId: string | SQLWrapper, campusId: string | SQLWrapper): SQL | undefined {
  return and(
    eq(chatMembers.userId, userId),
    eq(chatMembers.campusId, campusId),
    eq(chatMembers.unread, true),
    isNull(chatMembers.requestState),
  );
}
