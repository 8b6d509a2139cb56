import { randomUUID } from "node:crypto";
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { chatMembers, chatMessages, chats, user } from "../db/schema";
import { cursorTime, decodeCursor } from "../lists/cursor";
import { keysetPage, type Page, toPage } from "../lists/pages";
import { toUserSummary, userSummaryColumns } from "../lists/user-summary";
import { notify } from "../notifications/notify";
import { conversationsLimited } from "../safety/flag";
import { assertWithinConversationLimit } from "../trust/gates";
import { assertNotBlocked, memberChat, requireMemberChat, requireReader, requireSender } from "./access";
import { blockBetween } from "./blocks";
import { publishChatEvent } from "./chat-events";
import { checkMessage, type MessageInput, photoKeys, removeMessageFiles } from "./content";
import { ChatError } from "./errors";
import { checkMessageSafety } from "./message-safety";
import { appendMessage, assertWithinSendingLimit, lockSender, withStoredPhoto } from "./messages";
import type { ChatPerson } from "./people";
import {
  firstMessageGoesToRequests,
  holdAsRequest,
  inInbox,
  inRequests,
  type RequestState,
  recipientHears,
} from "./requests";
import { CHAT_LIST_PAGE_SIZE, CHAT_MESSAGES } from "./schemas.shared";

/**
 * Conversations (spec 2 §3 Chat, §4 'Chat', §7 'Chats and messages'): finding
 * and starting one, the inbox, a chat's header, deleting one. Every change publishes a 'chat'
 * event to each participant in its own transaction (decision 0210); screens refetch.
 */

const otherUser = alias(user, "other_user");

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

export interface StartConversationOptions {
  /**
   * Decision 0672: a safety rule warned this message. A new chat's first message from a level-0
   * sender so warned waits in the recipient's Requests whatever their setting.
   */
  flagged?: boolean;
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
  options: StartConversationOptions = {},
): Promise<{ chatId: string; messageId: string; created: boolean }> {
  const sender = requireSender(viewer, ctx.clock.now());
  if (input.recipientId === sender.id) throw new ChatError("forbidden", CHAT_MESSAGES.cannotMessageSelf);
  const [recipient] = await ctx.db
    .select({ id: user.id })
    .from(user)
    .where(
      and(
        eq(user.id, input.recipientId),
        eq(user.campusId, sender.campusId),
        eq(user.banned, false),
        isNull(user.deletedAt),
      ),
    )
    .limit(1);
  if (!recipient) throw new ChatError("user-not-found", CHAT_MESSAGES.userNotFound);
  await assertWithinSendingLimit(ctx, ctx.db, sender.id);
  await assertNotBlocked(ctx.db, sender, recipient.id);
  const message = await checkMessage(ctx, sender, input);
  const messageId = randomUUID();

  return withStoredPhoto(ctx, messageId, message, (photo) =>
    ctx.db.transaction(async (tx) => {
      const facts = await lockSender(tx, sender.id);
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
      // Decision 0653: a flagged sender's existing conversations go on; a new one waits until then.
      if (chatId && facts.conversationsLimitedUntil && facts.conversationsLimitedUntil > now)
        throw conversationsLimited(facts.conversationsLimitedUntil);
      const safety = await checkMessageSafety(
        ctx,
        tx,
        { id: sender.id, ...facts },
        recipient.id,
        message,
        input.acknowledgedNudge === true,
      );
      if (chatId) {
        // Decision 0661: a new conversation counts against the sender's trust level's day.
        await assertWithinConversationLimit(tx, ctx, sender.id);
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
        safety.ruleId,
      );
      await safety.afterStored();
      // Decision 0671: a stranger's first message waits in the recipient's Requests, unheard.
      if (
        inserted &&
        (await firstMessageGoesToRequests(tx, ctx, {
          senderId: sender.id,
          recipientId: recipient.id,
          flagged: (options.flagged ?? false) || safety.ruleId !== null,
        }))
      ) {
        await holdAsRequest(tx, chatId, recipient.id);
      }
      // Decision 0250: the recipient hears of a new chat, or of a message in the chat they had;
      // decision 0671: not while it waits in Requests or after they declined it.
      if (await recipientHears(tx, chatId, recipient.id))
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

/** One line of the inbox (spec 2 §2 '/messages'). */
export interface ChatListItem {
  id: string;
  other: ChatPerson;
  /** Decision 0571: the other person deleted their account ('Deleted account', no link). */
  otherDeleted: boolean;
  lastMessage: string;
  lastModified: Date;
  unread: boolean;
}

/**
 * spec 2 §7 'User chats … ordered lastModified descending': the viewer's chats, newest first,
 * keyset pages (chat_members_inbox_idx). Decision 0671: `box` 'requests' lists the Requests tab
 * instead (chat_members_requests_idx); the inbox leaves requests and declined conversations out.
 */
export async function listChats(
  ctx: AppContext,
  viewer: Viewer | null,
  options: { cursor?: string | null; box?: "inbox" | "requests" } = {},
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
      otherDeleted: sql<boolean>`${otherUser.deletedAt} is not null`,
    })
    .from(chatMembers)
    .innerJoin(chats, eq(chats.id, chatMembers.chatId))
    .innerJoin(otherUser, eq(otherUser.id, chatMembers.otherUserId))
    .$dynamic();
  const now = ctx.clock.now();
  const rows = await keysetPage(
    query,
    { time: chatMembers.lastModified, id: chatMembers.chatId, idKind: "uuid" },
    {
      where: [
        eq(chatMembers.userId, member.id),
        eq(chatMembers.campusId, member.campusId),
        options.box === "requests" ? inRequests() : inInbox(),
      ],
      key,
      limit: CHAT_LIST_PAGE_SIZE + 1,
    },
  );
  return toPage(
    rows,
    CHAT_LIST_PAGE_SIZE,
    (row) => row.id,
    ({ cursorTime: _time, other, ...row }) => ({ ...row, other: toUserSummary(other, now) }),
  );
}

/** A chat's header and state (spec 2 §2 '/messages/{chatId}'). */
export interface ChatView {
  id: string;
  other: ChatPerson;
  /** Decision 0571: the other person deleted their account ('Deleted account', no link, no reply). */
  otherDeleted: boolean;
  /** Decision 0230: the viewer blocked the other (the composer says 'You blocked this user' with Unblock). */
  viewerBlocked: boolean;
  /** The other blocked the viewer: the composer says so. */
  blockedByOther: boolean;
  /**
   * spec 2 §4 'Chat': the viewer's latest own message and whether the other has read it
   * ('Seen') or not ('Delivered'); null when the viewer has sent nothing.
   */
  receipt: { messageId: string; status: "Delivered" | "Seen" } | null;
  /** Decision 0671: the viewer's side waits in Requests ('pending') or was declined; null in the inbox. */
  request: RequestState | null;
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
  const [found] = await ctx.db
    .select({ ...userSummaryColumns(user), deletedAt: user.deletedAt })
    .from(user)
    .where(eq(user.id, chat.otherUserId))
    .limit(1);
  if (!found) return null;
  const { deletedAt, ...other } = found;
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
    other: toUserSummary(other, ctx.clock.now()),
    otherDeleted: deletedAt !== null,
    viewerBlocked: block === "viewer-blocked",
    blockedByOther: block === "blocked-viewer",
    receipt: latestOwn
      ? {
          messageId: latestOwn.id,
          status: (otherSide?.lastReadSeq ?? 0) >= latestOwn.seq ? "Seen" : "Delivered",
        }
      : null,
    request: chat.requestState,
  };
}
