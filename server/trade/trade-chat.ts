import { randomUUID } from "node:crypto";
import { and, eq, or } from "drizzle-orm";
import { publishChatEvent } from "../chats/chat-events";
import { appendMessage } from "../chats/messages";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { chatMembers, chatMessages, chats } from "../db/schema";

/**
 * Decision 0602: the trade lives in the pair's one conversation. These open it (as Send Message
 * would, without a first message), name the listing it is about, and add the trade's messages:
 * an offer's card or a system line, numbered and announced as any message is.
 */

export interface TradeChat {
  id: string;
  campusId: string;
}

/** The pair's chat on the campus, created when there is none (the pair's unique index settles a race). */
export async function ensureChat(
  ctx: AppContext,
  tx: Tx,
  campusId: string,
  fromUserId: string,
  toUserId: string,
  postId: string,
): Promise<TradeChat> {
  const now = ctx.clock.now();
  const [inserted] = await tx
    .insert(chats)
    .values({ campusId, fromUserId, toUserId, postId, createdAt: now, lastModified: now })
    .onConflictDoNothing()
    .returning({ id: chats.id });
  if (inserted) {
    await tx.insert(chatMembers).values([
      { chatId: inserted.id, userId: fromUserId, otherUserId: toUserId, campusId, lastModified: now },
      { chatId: inserted.id, userId: toUserId, otherUserId: fromUserId, campusId, lastModified: now },
    ]);
    return { id: inserted.id, campusId };
  }
  const [existing] = await tx
    .select({ id: chats.id })
    .from(chats)
    .where(
      and(
        eq(chats.campusId, campusId),
        or(
          and(eq(chats.fromUserId, fromUserId), eq(chats.toUserId, toUserId)),
          and(eq(chats.fromUserId, toUserId), eq(chats.toUserId, fromUserId)),
        ),
      ),
    )
    .limit(1);
  if (!existing) throw new Error("trade: the pair's chat was neither inserted nor found");
  await setChatListing(tx, existing.id, postId);
  return { id: existing.id, campusId };
}

/** Decision 0600: the chat is about the listing it was last opened from or offered on. */
export async function setChatListing(tx: Tx, chatId: string, postId: string): Promise<void> {
  await tx.update(chats).set({ postId }).where(eq(chats.id, chatId));
}

/** Adds an offer's card (its text is the inbox's preview) or a system line to the chat. */
export async function appendTradeMessage(
  ctx: AppContext,
  tx: Tx,
  chat: TradeChat,
  senderId: string,
  recipientId: string,
  message: { text: string; offerId?: string | null; systemEvent?: string | null },
): Promise<string> {
  const messageId = randomUUID();
  await appendMessage(
    ctx,
    tx,
    chat,
    senderId,
    recipientId,
    { text: message.text, postId: null, photo: null },
    messageId,
    null,
  );
  await tx
    .update(chatMessages)
    .set({ offerId: message.offerId ?? null, systemEvent: message.systemEvent ?? null })
    .where(eq(chatMessages.id, messageId));
  return messageId;
}

/** A card changed in place (no new message): both browsers reload the thread (decision 0210). */
export async function announceCardChanged(tx: Tx, chatId: string, userIds: readonly string[]): Promise<void> {
  await publishChatEvent(tx, userIds, { chatId, kind: "message" });
}
