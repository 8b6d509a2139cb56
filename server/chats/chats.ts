import { randomUUID } from "node:crypto";
import { and, count, desc, eq, gt, inArray, lt, ne, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { assertCanParticipate, ParticipationRefused } from "../accounts/gates";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { chatMembers, chatMessages, chats, postMedia, posts, user } from "../db/schema";
import { markChatNotificationsRead } from "../notifications/notifications";
import { notify } from "../notifications/notify";
import { cursorTime, decodeCursor, keysetPage, type Page, toPage } from "../posts/cursor";
import { isUuid } from "../posts/input";
import { type ListingKind, type ListingStatus, priceLine } from "../posts/listing";
import { PREVIEW_CHARACTERS } from "../posts/rich-text";
import { userSummaryColumns } from "../posts/views";
import { publishUserEvent } from "../realtime/events";
import { blockBetween } from "./blocks";
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
import { CHAT_LIST_PAGE_SIZE, CHAT_MESSAGES, MESSAGE_PAGE_SIZE, MESSAGES_PER_MINUTE } from "./schemas";

/**
 * Conversations and messages (spec 2 §3 Chat and Message, §4 'Chat', §6, §7
 * 'Chats and messages'). Every function checks who may act: only the two participants of a
 * chat on the viewer's own campus read, send, like, mark read or delete it; any other id is
 * 'This conversation doesn't exist' (spec 2 §8), whoever sends it. Every change publishes a
 * 'chat' event to each participant in its own transaction (decision 0210); screens refetch.
 */

/** The realtime event every chat change publishes (decision 0210: ids only). */
export type ChatEventKind = "message" | "read" | "like" | "deleted" | "blocked";
export interface ChatEventData {
  chatId: string;
  messageId?: string;
  kind: ChatEventKind;
}
export const CHAT_EVENT_TYPE = "chat";

async function publishChatEvent(tx: Tx, userIds: readonly string[], data: ChatEventData): Promise<void> {
  // One user's events in a fixed order (sorted ids), so two transactions never wait on each other's cursors.
  for (const userId of [...userIds].sort()) {
    await publishUserEvent(tx, userId, { type: CHAT_EVENT_TYPE, data: { ...data } });
  }
}

/** A person as the chat screens show them. */
export interface ChatPerson {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  img: string | null;
  /** The verified badge (school-verified), as on post cards. */
  verified: boolean;
}

const otherUser = alias(user, "other_user");

/**
 * Reading chats needs a signed-in member with a verified e-mail (spec 2 §2 'Auth only');
 * writing also needs the school (spec 2 §5: prompted before messaging).
 */
function requireReader(viewer: Viewer | null): Viewer {
  if (!viewer || viewer.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "message" });
  if (!viewer.verified) throw new ParticipationRefused({ kind: "verify-email" });
  return viewer;
}

function requireSender(viewer: Viewer | null): Viewer {
  if (viewer?.banned) throw new ParticipationRefused({ kind: "sign-in", reason: "message" });
  assertCanParticipate(viewer, "message");
  return viewer;
}

interface ChatRow {
  id: string;
  campusId: string;
  otherUserId: string;
  lastSeq: number;
}

/** The chat if the viewer takes part in it on their own campus, else null (spec 2 §6). */
async function memberChat(
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
    })
    .from(chats)
    .innerJoin(chatMembers, and(eq(chatMembers.chatId, chats.id), eq(chatMembers.userId, viewer.id)))
    .where(and(eq(chats.id, chatId), eq(chats.campusId, viewer.campusId)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: chats }) : await query;
  return row ?? null;
}

async function requireMemberChat(
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
 * The sender's row, locked until the transaction ends, so one sender's parallel sends are
 * counted one after another (decision 0232). FOR NO KEY UPDATE, not FOR UPDATE: the foreign
 * keys of the rows a send writes take KEY SHARE locks on both people's rows, which FOR UPDATE
 * would block (two people messaging each other at once would deadlock).
 */
async function lockSender(tx: Tx, senderId: string): Promise<void> {
  await tx.select({ id: user.id }).from(user).where(eq(user.id, senderId)).for("no key update");
}

/** Decision 0232: at most MESSAGES_PER_MINUTE messages a minute per sender, counted in the database. */
async function assertWithinSendingLimit(ctx: AppContext, db: Queryable, senderId: string): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - 60_000);
  const recent = await db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.senderId, senderId), gt(chatMessages.createdAt, since)))
    .orderBy(desc(chatMessages.createdAt))
    .limit(MESSAGES_PER_MINUTE);
  if (recent.length >= MESSAGES_PER_MINUTE) throw new ChatError("rate-limited", CHAT_MESSAGES.sendingTooFast);
}

/** Decision 0230: a block in either direction stops new messages; the words depend on who blocked. */
async function assertNotBlocked(db: Queryable, sender: Viewer, otherUserId: string): Promise<void> {
  const block = await blockBetween(db, sender.id, otherUserId);
  if (block === "viewer-blocked") throw new ChatError("blocked", CHAT_MESSAGES.youBlocked);
  if (block === "blocked-viewer") throw new ChatError("blocked", CHAT_MESSAGES.blockedYou);
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
async function appendMessage(
  ctx: AppContext,
  tx: Tx,
  chat: { id: string; campusId: string },
  senderId: string,
  recipientId: string,
  message: CheckedMessage,
  messageId: string,
  photo: StoredMessagePhoto | null,
): Promise<void> {
  const now = ctx.clock.now();
  const [numbered] = await tx
    .update(chats)
    .set({
      lastSeq: sql`${chats.lastSeq} + 1`,
      lastMessage: previewOf(message),
      lastMessageId: messageId,
      lastModified: now,
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
    createdAt: now,
  });
  await tx
    .update(chatMembers)
    .set({
      lastModified: now,
      unread: sql`${chatMembers.userId} <> ${senderId}`,
      lastReadSeq: sql`case when ${chatMembers.userId} = ${senderId} then ${numbered.seq} else ${chatMembers.lastReadSeq} end`,
    })
    .where(eq(chatMembers.chatId, chat.id));
  // Decision 0455: answering means having read, so the sender's notifications of this chat are read too.
  await markChatNotificationsRead(tx, senderId, chat.id);
  await publishChatEvent(tx, [senderId, recipientId], { chatId: chat.id, messageId, kind: "message" });
}

/** Writes the photo (if any) first and removes it again when the transaction fails. */
async function withStoredPhoto<T>(
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

/** The chat between the viewer and another member, in either direction, or null (spec 2 §4). */
export async function findConversationWith(
  ctx: AppContext,
  viewer: Viewer | null,
  otherUserId: string,
): Promise<string | null> {
  const member = requireReader(viewer);
  const [row] = await ctx.db
    .select({ chatId: chatMembers.chatId })
    .from(chatMembers)
    .where(
      and(
        eq(chatMembers.userId, member.id),
        eq(chatMembers.otherUserId, otherUserId),
        eq(chatMembers.campusId, member.campusId),
      ),
    )
    .limit(1);
  return row?.chatId ?? null;
}

export interface StartConversationInput extends MessageInput {
  recipientId: string;
}

/**
 * spec 2 §4 'Chat': starting a conversation looks for a chat between the two in either
 * direction first and adds the message there; otherwise it creates the chat and its first
 * message in one transaction (`created`: the page says 'New Conversation Started'). Two people
 * starting one at the same moment meet in one chat (the pair's unique index). Refused: signed
 * out, unverified (ParticipationRefused); oneself; someone not on the viewer's campus; a block.
 */
export async function startConversation(
  ctx: AppContext,
  viewer: Viewer | null,
  input: StartConversationInput,
): Promise<{ chatId: string; messageId: string; created: boolean }> {
  const sender = requireSender(viewer);
  if (input.recipientId === sender.id) throw new ChatError("forbidden", CHAT_MESSAGES.cannotMessageSelf);
  const [recipient] = await ctx.db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.id, input.recipientId), eq(user.campusId, sender.campusId), eq(user.banned, false)))
    .limit(1);
  if (!recipient) throw new ChatError("user-not-found", CHAT_MESSAGES.userNotFound);
  await assertWithinSendingLimit(ctx, ctx.db, sender.id);
  await assertNotBlocked(ctx.db, sender, recipient.id);
  const message = await checkMessage(ctx, sender.campusId, input);
  const messageId = randomUUID();

  return withStoredPhoto(ctx, messageId, message, (photo) =>
    ctx.db.transaction(async (tx) => {
      await lockSender(tx, sender.id);
      await assertWithinSendingLimit(ctx, tx, sender.id);
      await assertNotBlocked(tx, sender, recipient.id);
      const now = ctx.clock.now();
      const [inserted] = await tx
        .insert(chats)
        .values({
          campusId: sender.campusId,
          fromUserId: sender.id,
          toUserId: recipient.id,
          createdAt: now,
          lastModified: now,
        })
        .onConflictDoNothing()
        .returning({ id: chats.id });
      let chatId = inserted?.id;
      if (chatId) {
        await tx.insert(chatMembers).values([
          {
            chatId,
            userId: sender.id,
            otherUserId: recipient.id,
            campusId: sender.campusId,
            lastModified: now,
          },
          {
            chatId,
            userId: recipient.id,
            otherUserId: sender.id,
            campusId: sender.campusId,
            lastModified: now,
          },
        ]);
      } else {
        const [existing] = await tx
          .select({ id: chats.id })
          .from(chats)
          .where(
            and(
              eq(chats.campusId, sender.campusId),
              or(
                and(eq(chats.fromUserId, sender.id), eq(chats.toUserId, recipient.id)),
                and(eq(chats.fromUserId, recipient.id), eq(chats.toUserId, sender.id)),
              ),
            ),
          )
          .limit(1);
        if (!existing) throw new Error("chat: the pair's chat was neither inserted nor found");
        chatId = existing.id;
      }
      await appendMessage(
        ctx,
        tx,
        { id: chatId, campusId: sender.campusId },
        sender.id,
        recipient.id,
        message,
        messageId,
        photo,
      );
      // Decision 0250: the recipient hears of a new chat, or of a message in the chat they had.
      await notify(tx, ctx, {
        type: inserted ? "new chat" : "message",
        to: recipient.id,
        actorId: sender.id,
        campusId: sender.campusId,
        chatId,
        messageId,
      });
      return { chatId, messageId, created: Boolean(inserted) };
    }),
  );
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
  const sender = requireSender(viewer);
  const chat = await requireMemberChat(ctx.db, sender, chatId);
  await assertWithinSendingLimit(ctx, ctx.db, sender.id);
  await assertNotBlocked(ctx.db, sender, chat.otherUserId);
  const message = await checkMessage(ctx, sender.campusId, input);
  const messageId = randomUUID();
  await withStoredPhoto(ctx, messageId, message, (photo) =>
    ctx.db.transaction(async (tx) => {
      await lockSender(tx, sender.id);
      // Deleted meanwhile: the message has nowhere to go.
      const locked = await requireMemberChat(tx, sender, chatId, true);
      await assertWithinSendingLimit(ctx, tx, sender.id);
      await assertNotBlocked(tx, sender, locked.otherUserId);
      await appendMessage(ctx, tx, locked, sender.id, locked.otherUserId, message, messageId, photo);
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
  const liker = requireSender(viewer);
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

/**
 * spec 2 §4, §6: either participant deletes the conversation: its messages and the chat go
 * for both in one transaction, then the photos' files (decision 0234). `failedFiles` lists
 * files that could not be removed ('Couldn't delete all chat messages').
 */
export async function deleteChat(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
): Promise<{ failedFiles: string[] }> {
  const member = requireReader(viewer);
  await requireMemberChat(ctx.db, member, chatId);
  const keys = await ctx.db.transaction(async (tx) => {
    const chat = await requireMemberChat(tx, member, chatId, true);
    const photos = await tx
      .select({ imgPath: chatMessages.imgPath, thumbPath: chatMessages.thumbPath })
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, chat.id), sql`${chatMessages.imgPath} is not null`));
    await tx.delete(chatMessages).where(eq(chatMessages.chatId, chat.id));
    await tx.delete(chats).where(eq(chats.id, chat.id));
    await publishChatEvent(tx, [member.id, chat.otherUserId], { chatId: chat.id, kind: "deleted" });
    return photoKeys(photos);
  });
  return { failedFiles: await removeMessageFiles(ctx, keys) };
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

/** The rows countUnreadChats counts (chat_members of the user on the campus, unread); the shell's badges read them beside others. */
export function unreadChatsOf(userId: string | SQLWrapper, campusId: string | SQLWrapper): SQL | undefined {
  return and(
    eq(chatMembers.userId, userId),
    eq(chatMembers.campusId, campusId),
    eq(chatMembers.unread, true),
  );
}

/** One line of the inbox (spec 2 §2 '/messages'). */
export interface ChatListItem {
  id: string;
  other: ChatPerson;
  lastMessage: string;
  lastModified: Date;
  unread: boolean;
}

/**
 * spec 2 §7 'User chats … ordered lastModified descending': the viewer's chats, newest first,
 * keyset pages (chat_members_inbox_idx).
 */
export async function listChats(
  ctx: AppContext,
  viewer: Viewer | null,
  options: { cursor?: string | null } = {},
): Promise<Page<ChatListItem>> {
  const member = requireReader(viewer);
  const key = options.cursor ? decodeCursor(options.cursor) : null;
  const query = ctx.db
    .select({
      id: chats.id,
      lastMessage: chats.lastMessage,
      lastModified: chatMembers.lastModified,
      cursorTime: cursorTime(chatMembers.lastModified),
      unread: chatMembers.unread,
      other: userSummaryColumns(otherUser),
    })
    .from(chatMembers)
    .innerJoin(chats, eq(chats.id, chatMembers.chatId))
    .innerJoin(otherUser, eq(otherUser.id, chatMembers.otherUserId))
    .$dynamic();
  const rows = await keysetPage(
    query,
    { time: chatMembers.lastModified, id: chatMembers.chatId, idKind: "uuid" },
    {
      where: [eq(chatMembers.userId, member.id), eq(chatMembers.campusId, member.campusId)],
      key,
      limit: CHAT_LIST_PAGE_SIZE + 1,
    },
  );
  return toPage(
    rows,
    CHAT_LIST_PAGE_SIZE,
    (row) => row.id,
    ({ cursorTime: _time, ...row }) => row,
  );
}

/** A chat's header and state (spec 2 §2 '/messages/{chatId}'). */
export interface ChatView {
  id: string;
  other: ChatPerson;
  /** Decision 0230: the viewer blocked the other (the composer says 'You blocked this user' with Unblock). */
  viewerBlocked: boolean;
  /** The other blocked the viewer: the composer says so. */
  blockedByOther: boolean;
  /**
   * spec 2 §4 'Chat': the viewer's latest own message and whether the other has read it
   * ('Seen') or not ('Delivered'); null when the viewer has sent nothing.
   */
  receipt: { messageId: string; status: "Delivered" | "Seen" } | null;
}

/** A chat the viewer takes part in, or null ('This conversation doesn't exist'). */
export async function getChat(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
): Promise<ChatView | null> {
  const member = requireReader(viewer);
  const chat = await memberChat(ctx.db, member, chatId);
  if (!chat) return null;
  const [other] = await ctx.db
    .select(userSummaryColumns(user))
    .from(user)
    .where(eq(user.id, chat.otherUserId))
    .limit(1);
  if (!other) return null;
  const [otherSide] = await ctx.db
    .select({ lastReadSeq: chatMembers.lastReadSeq })
    .from(chatMembers)
    .where(and(eq(chatMembers.chatId, chat.id), eq(chatMembers.userId, chat.otherUserId)))
    .limit(1);
  const [latestOwn] = await ctx.db
    .select({ id: chatMessages.id, seq: chatMessages.seq })
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chat.id), eq(chatMessages.senderId, member.id)))
    .orderBy(desc(chatMessages.seq))
    .limit(1);
  const block = await blockBetween(ctx.db, member.id, chat.otherUserId);
  return {
    id: chat.id,
    other,
    viewerBlocked: block === "viewer-blocked",
    blockedByOther: block === "blocked-viewer",
    receipt: latestOwn
      ? {
          messageId: latestOwn.id,
          status: (otherSide?.lastReadSeq ?? 0) >= latestOwn.seq ? "Seen" : "Delivered",
        }
      : null,
  };
}

/**
 * A shared post as the message's card shows it; `deleted` shows '* Post deleted **'. The price
 * and the listing's kind and status are read when the thread loads, not kept in the message, so
 * a listing sold since it was shared shows Sold (decision 0456).
 */
export type SharedPostCard =
  | { deleted: true; id: string }
  | {
      deleted: false;
      id: string;
      text: string;
      author: string;
      thumbUrl: string | null;
      /** The card's price line ('$40 · Firm', 'Free'); null without a price (decision 0170). */
      price: string | null;
      kind: ListingKind;
      status: ListingStatus;
    };

export interface MessageView {
  id: string;
  seq: number;
  own: boolean;
  text: string;
  photo: { url: string; thumbUrl: string; width: number; height: number } | null;
  sharedPost: SharedPostCard | null;
  liked: boolean;
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
      createdAt: chatMessages.createdAt,
    })
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chat.id), before ? lt(chatMessages.seq, before) : undefined))
    .orderBy(desc(chatMessages.seq))
    .limit(MESSAGE_PAGE_SIZE + 1);
  const kept = rows.slice(0, MESSAGE_PAGE_SIZE);
  const cards = await sharedPostCards(
    ctx,
    member.campusId,
    kept.flatMap((row) => (row.postId ? [row.postId] : [])),
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
      createdAt: row.createdAt,
    }),
  );
  const oldest = items[0];
  return { items, olderBefore: rows.length > MESSAGE_PAGE_SIZE && oldest ? oldest.seq : null };
}

/** The cards of shared posts that still exist on the campus; a missing one is '* Post deleted **' (spec 2 §4). */
export async function sharedPostCards(
  ctx: AppContext,
  campusId: string,
  postIds: readonly string[],
): Promise<Map<string, SharedPostCard>> {
  const cards = new Map<string, SharedPostCard>();
  const ids = [...new Set(postIds)];
  if (ids.length === 0) return cards;
  const rows = await ctx.db
    .select({
      id: posts.id,
      text: posts.textPlain,
      firstName: user.firstName,
      lastName: user.lastName,
      thumb: postMedia.thumbPath,
      priceCents: posts.priceCents,
      priceTerms: posts.priceTerms,
      kind: posts.listingKind,
      status: posts.listingStatus,
    })
    .from(posts)
    .innerJoin(user, eq(user.id, posts.authorId))
    .leftJoin(postMedia, and(eq(postMedia.postId, posts.id), eq(postMedia.imgOrder, 1)))
    .where(and(inArray(posts.id, ids), eq(posts.campusId, campusId), ne(posts.type, "new user")));
  for (const row of rows) {
    cards.set(row.id, {
      deleted: false,
      id: row.id,
      text: [...row.text].slice(0, PREVIEW_CHARACTERS).join(""),
      author: `${row.firstName} ${row.lastName}`,
      thumbUrl: row.thumb ? ctx.storage.url(row.thumb) : null,
      price: priceLine(row),
      kind: row.kind,
      status: row.status,
    });
  }
  return cards;
}

/** The post a Send Message button shares, as the new-message page previews it (null when gone). */
export async function sharedPostPreview(
  ctx: AppContext,
  viewer: Viewer | null,
  postId: string,
): Promise<SharedPostCard | null> {
  const member = requireReader(viewer);
  if (!isUuid(postId)) return null;
  return (await sharedPostCards(ctx, member.campusId, [postId])).get(postId) ?? null;
}

/** A member of the viewer's campus by username, for /messages/new?to= (null when not there). */
export async function getCampusPerson(
  ctx: AppContext,
  viewer: Viewer | null,
  username: string,
): Promise<ChatPerson | null> {
  const member = requireReader(viewer);
  if (username.length > 64) return null;
  const [row] = await ctx.db
    .select(userSummaryColumns(user))
    .from(user)
    .where(
      and(
        eq(user.username, username.toLowerCase()),
        eq(user.campusId, member.campusId),
        eq(user.banned, false),
      ),
    )
    .limit(1);
  return row ?? null;
}
