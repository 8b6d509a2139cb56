import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, lt, ne, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { isUuid } from "../db/ids";
import { chatMembers, chatMessages, chats, safetyRules, user } from "../db/schema";
import { markChatNotificationsRead } from "../notifications/notifications";
import { notify } from "../notifications/notify";
import { PREVIEW_CHARACTERS } from "../posts/rich-text.shared";
import { assertNotBlocked, requireMemberChat, requireReader, requireSender } from "./access";
import { publishChatEvent } from "./chat-events";
import {
  type CheckedMessage,
  checkMessage,
  type MessageInput,
  messagePhotoUrl,
  photoKeys,
  removeMessageFiles,
  type StoredMessagePhoto,
  storeMessagePhoto,
} from "./content";
import { ChatError, chatNotFound } from "./errors";
import { checkMessageSafety } from "./message-safety";
import { recipientHears } from "./requests";
import { CHAT_MESSAGES, MESSAGE_PAGE_SIZE, MESSAGES_PER_MINUTE } from "./schemas.shared";
import { type SharedPostCard, sharedPostCards } from "./shared-posts";

/**
 * Messages of a chat (spec 2 §3 Message, §4 'Chat', §7 'Chats and messages'):
 * appending one under the chat's row lock, sending, hearts, and the thread's pages.
 */

/**
 * The sender's row, locked until the transaction ends, so one sender's parallel sends are
 * counted one after another (decision 0232). FOR NO KEY UPDATE, not FOR UPDATE: the foreign
 * keys of the rows a send writes take KEY SHARE locks on both people's rows, which FOR UPDATE
 * would block (two people messaging each other at once would deadlock).
 */
export async function lockSender(tx: Tx, senderId: string): Promise<LockedSender> {
  const [row] = await tx
    .select({ createdAt: user.createdAt, conversationsLimitedUntil: user.conversationsLimitedUntil })
    .from(user)
    .where(eq(user.id, senderId))
    .for("no key update");
  if (!row) throw chatNotFound();
  return row;
}

/** What the safety rules need of the locked sender (docs/product/safety.md). */
export interface LockedSender {
  createdAt: Date;
  /** Decision 0653: a flagged sender cannot start conversations until then. */
  conversationsLimitedUntil: Date | null;
}

/** Decision 0232: at most MESSAGES_PER_MINUTE messages a minute per sender, counted in the database. */
export async function assertWithinSendingLimit(
  ctx: AppContext,
  db: Queryable,
  senderId: string,
): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - 60_000);
  const recent = await db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.senderId, senderId), gt(chatMessages.createdAt, since)))
    .orderBy(desc(chatMessages.createdAt))
    .limit(MESSAGES_PER_MINUTE);
  if (recent.length >= MESSAGES_PER_MINUTE) throw new ChatError("rate-limited", CHAT_MESSAGES.sendingTooFast);
}

/** The inbox's line for a message (spec 2 §3 last_message). */
function previewOf(message: CheckedMessage): string {
  if (message.text) {
    const firstLine = message.text.split("\n").find((line) => line.trim() !== "") ?? "";
    return [...firstLine].slice(0, PREVIEW_CHARACTERS).join("");
  }
  return message.photo ? CHAT_MESSAGES.photoPreview : CHAT_MESSAGES.postPreview;
}

/**
 * Appends a message inside the caller's transaction (spec 2 §4 'Chat'): the chat's number,
 * last message and time move on under the chat's row lock; the sender has read up to it, the
 * other participant has it unread; both are told.
 */
export async function appendMessage(
  ctx: AppContext,
  tx: Tx,
  chat: { id: string; campusId: string },
  senderId: string,
  recipientId: string,
  message: CheckedMessage,
  messageId: string,
  photo: StoredMessagePhoto | null,
  /** docs/product/safety.md: the warn rule whose card the recipient sees under this message. */
  safetyRuleId: string | null = null,
): Promise<void> {
  const now = ctx.clock.now();
  const [numbered] = await tx
    .update(chats)
    .set({
      lastSeq: sql`${chats.lastSeq} + 1`,
      lastMessage: previewOf(message),
      lastMessageId: messageId,
      lastModified: now,
      // Decision 0605: sharing one of the pair's own listings (Send Message on it) makes the chat about it.
      postId: message.postId
        ? sql`case when exists (select 1 from posts where id = ${message.postId}::uuid and parent_id is null
            and author_id in (${senderId}, ${recipientId})) then ${message.postId}::uuid else ${chats.postId} end`
        : undefined,
    })
    .where(eq(chats.id, chat.id))
    .returning({ seq: chats.lastSeq });
  if (!numbered) throw chatNotFound();
  await tx.insert(chatMessages).values({
    id: messageId,
    chatId: chat.id,
    campusId: chat.campusId,
    senderId,
    seq: numbered.seq,
    text: message.text,
    postId: message.postId,
    imgPath: photo?.imgPath ?? null,
    thumbPath: photo?.thumbPath ?? null,
    imgWidth: photo?.imgWidth ?? null,
    imgHeight: photo?.imgHeight ?? null,
    safetyRuleId,
    createdAt: now,
  });
  await tx
    .update(chatMembers)
    .set({
      lastModified: now,
      unread: sql`${chatMembers.userId} <> ${senderId}`,
      // Decision 0671: writing to the other accepts their request (or brings back a declined one).
      requestState: sql`case when ${chatMembers.userId} = ${senderId} then null else ${chatMembers.requestState} end`,
      lastReadSeq: sql`case when ${chatMembers.userId} = ${senderId} then ${numbered.seq} else ${chatMembers.lastReadSeq} end`,
    })
    .where(eq(chatMembers.chatId, chat.id));
  // Decision 0455: answering means having read, so the sender's notifications of this chat are read too.
  await markChatNotificationsRead(tx, senderId, chat.id);
  await publishChatEvent(tx, [senderId, recipientId], { chatId: chat.id, messageId, kind: "message" });
}

/** Writes the photo (if any) first and removes it again when the transaction fails. */
export async function withStoredPhoto<T>(
  ctx: AppContext,
  messageId: string,
  message: CheckedMessage,
  write: (photo: StoredMessagePhoto | null) => Promise<T>,
): Promise<T> {
  const photo = message.photo ? await storeMessagePhoto(ctx, messageId, message.photo) : null;
  try {
    return await write(photo);
  } catch (error) {
    if (photo) await removeMessageFiles(ctx, photoKeys([photo]));
    throw error;
  }
}

/**
 * spec 2 §4 'Chat', §5: sends a message to a chat the viewer takes part in. Sending sets the
 * last message and leaves it unread for the other participant.
 */
export async function sendMessage(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
  input: MessageInput,
): Promise<{ messageId: string }> {
  const sender = requireSender(viewer, ctx.clock.now());
  const chat = await requireMemberChat(ctx.db, sender, chatId);
  await assertWithinSendingLimit(ctx, ctx.db, sender.id);
  await assertNotBlocked(ctx.db, sender, chat.otherUserId);
  const message = await checkMessage(ctx, sender, input);
  const messageId = randomUUID();
  await withStoredPhoto(ctx, messageId, message, (photo) =>
    ctx.db.transaction(async (tx) => {
      const facts = await lockSender(tx, sender.id);
      // Deleted meanwhile: the message has nowhere to go.
      const locked = await requireMemberChat(tx, sender, chatId, true);
      await assertWithinSendingLimit(ctx, tx, sender.id);
      await assertNotBlocked(tx, sender, locked.otherUserId);
      const safety = await checkMessageSafety(
        ctx,
        tx,
        { id: sender.id, ...facts },
        locked.otherUserId,
        message,
        input.acknowledgedNudge === true,
      );
      await appendMessage(
        ctx,
        tx,
        locked,
        sender.id,
        locked.otherUserId,
        message,
        messageId,
        photo,
        safety.ruleId,
      );
      await safety.afterStored();
      // Decision 0671: a message to a request waiting (or declined) on the other side is not announced.
      if (!(await recipientHears(tx, locked.id, locked.otherUserId))) return;
      await notify(tx, ctx, {
        type: "message",
        to: locked.otherUserId,
        actorId: sender.id,
        campusId: sender.campusId,
        chatId: locked.id,
        messageId,
      });
    }),
  );
  return { messageId };
}

/**
 * spec 2 §4, §6: the recipient of a message likes it or takes the heart back (a toggle); the
 * sender cannot. The chat's last message becomes the reaction notice (decision 0233).
 */
export async function toggleMessageLike(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
  messageId: string,
): Promise<{ liked: boolean }> {
  const liker = requireSender(viewer, ctx.clock.now());
  await requireMemberChat(ctx.db, liker, chatId);
  if (!isUuid(messageId)) throw chatNotFound();
  return ctx.db.transaction(async (tx) => {
    const chat = await requireMemberChat(tx, liker, chatId, true);
    const [message] = await tx
      .select({ senderId: chatMessages.senderId, likedAt: chatMessages.likedAt })
      .from(chatMessages)
      .where(and(eq(chatMessages.id, messageId), eq(chatMessages.chatId, chat.id)))
      .limit(1);
    if (!message) throw chatNotFound();
    if (message.senderId === liker.id) throw new ChatError("forbidden", CHAT_MESSAGES.onlyRecipientLikes);
    // Decision 0230: a block stops hearts too (a like reaches the other as the chat's last message).
    await assertNotBlocked(tx, liker, chat.otherUserId);
    const liked = message.likedAt === null;
    await tx
      .update(chatMessages)
      .set({ likedAt: liked ? ctx.clock.now() : null })
      .where(eq(chatMessages.id, messageId));
    await tx
      .update(chats)
      .set({
        lastMessage: liked
          ? CHAT_MESSAGES.reacted(liker.firstName)
          : CHAT_MESSAGES.removedHeart(liker.firstName),
      })
      .where(eq(chats.id, chat.id));
    await publishChatEvent(tx, [liker.id, chat.otherUserId], { chatId: chat.id, messageId, kind: "like" });
    // Decision 0250: the sender hears of a heart (not of one taken back).
    if (liked) {
      await notify(tx, ctx, {
        type: "message like",
        to: message.senderId,
        actorId: liker.id,
        campusId: liker.campusId,
        chatId: chat.id,
        messageId,
      });
    }
    return { liked };
  });
}

export interface MessageView {
  id: string;
  seq: number;
  own: boolean;
  text: string;
  photo: { url: string; thumbUrl: string; width: number; height: number } | null;
  sharedPost: SharedPostCard | null;
  liked: boolean;
  /** Decision 0600: the offer or meetup whose card this message shows (the trade module reads them). */
  offerId: string | null;
  meetupId: string | null;
  /** Decision 0600: a system line's event (worded by the trade module), null for a member's message. */
  systemEvent: string | null;
  /**
   * docs/product/safety.md: the warning card under a message the viewer received, worded by the
   * rule (never the message's text); always null on the viewer's own messages.
   */
  warning: { ruleKey: string; message: string } | null;
  createdAt: Date;
}

export interface MessagePage {
  /** Oldest first, as the chat shows them (newest at the bottom). */
  items: MessageView[];
  /** The seq to ask `before` for the next older page; null at the beginning of the chat. */
  olderBefore: number | null;
}

/**
 * spec 2 §7 'Messages of a chat ordered by createdAt descending … pages of 15': the newest
 * page, or the page before message number `before` (keyset on the chat's numbering).
 */
export async function listMessages(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
  options: { before?: number | null } = {},
): Promise<MessagePage> {
  const member = requireReader(viewer);
  const chat = await requireMemberChat(ctx.db, member, chatId);
  const before = options.before;
  if (before !== undefined && before !== null && (!Number.isInteger(before) || before < 1))
    throw new ChatError("invalid-input", CHAT_MESSAGES.badCursor);
  const rows = await ctx.db
    .select({
      id: chatMessages.id,
      seq: chatMessages.seq,
      senderId: chatMessages.senderId,
      text: chatMessages.text,
      postId: chatMessages.postId,
      imgPath: chatMessages.imgPath,
      thumbPath: chatMessages.thumbPath,
      imgWidth: chatMessages.imgWidth,
      imgHeight: chatMessages.imgHeight,
      likedAt: chatMessages.likedAt,
      offerId: chatMessages.offerId,
      meetupId: chatMessages.meetupId,
      systemEvent: chatMessages.systemEvent,
      warningKey: safetyRules.key,
      warningMessage: safetyRules.message,
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    // Only the recipient's card: the join finds no rule for the viewer's own messages.
    .leftJoin(
      safetyRules,
      and(eq(safetyRules.id, chatMessages.safetyRuleId), ne(chatMessages.senderId, member.id)),
    )
    .where(and(eq(chatMessages.chatId, chat.id), before ? lt(chatMessages.seq, before) : undefined))
    .orderBy(desc(chatMessages.seq))
    .limit(MESSAGE_PAGE_SIZE + 1);
  const kept = rows.slice(0, MESSAGE_PAGE_SIZE);
  const cards = await sharedPostCards(
    ctx,
    member.campusId,
    kept.flatMap((row) => (row.postId ? [row.postId] : [])),
    member.id,
  );
  const items = kept.reverse().map(
    (row): MessageView => ({
      id: row.id,
      seq: row.seq,
      own: row.senderId === member.id,
      text: row.text,
      photo:
        row.imgPath && row.thumbPath
          ? {
              // Decision 0463: the members-only address, never the public media one.
              url: messagePhotoUrl(row.imgPath),
              thumbUrl: messagePhotoUrl(row.thumbPath),
              width: row.imgWidth ?? 0,
              height: row.imgHeight ?? 0,
            }
          : null,
      sharedPost: row.postId ? (cards.get(row.postId) ?? { deleted: true, id: row.postId }) : null,
      liked: row.likedAt !== null,
      offerId: row.offerId,
      meetupId: row.meetupId,
      systemEvent: row.systemEvent,
      warning:
        row.warningKey && row.warningMessage && row.senderId !== member.id
          ? { ruleKey: row.warningKey, message: row.warningMessage }
          : null,
      createdAt: row.createdAt,
    }),
  );
  const oldest = items[0];
  return { items, olderBefore: rows.length > MESSAGE_PAGE_SIZE && oldest ? oldest.seq : null };
}
