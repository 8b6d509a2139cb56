import { and, count, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { invalidAccountInput } from "../accounts/errors.shared";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable, Tx } from "../db/client";
import { isUuid } from "../db/ids";
import { chatMembers, chatMessages, chats, deals, user } from "../db/schema";
import { parseInput } from "../validation";
import { requireReader } from "./access";
import { blockUser } from "./blocks";
import { publishChatEvent } from "./chat-events";
import { ChatError } from "./errors";
import {
  type MessagePolicy,
  type MessagePolicyInput,
  messagePolicySchema,
  REQUEST_MESSAGES,
} from "./requests.shared";

/**
 * 'Who can message me' and Requests (decisions 0670, 0671, docs/product/message-requests.md): a
 * student who chose 'known' finds strangers' first messages in Requests, without a notification,
 * an e-mail or a push; a new student's first message that a safety rule warned goes there whatever
 * the setting. The recipient's chat_members row carries it (decision 0650): 'pending' in Requests,
 * 'declined' gone from their lists, null in the inbox. The sender is never told.
 */

export type RequestState = "pending" | "declined";

export async function getMessagePolicy(ctx: AppContext, viewer: Viewer): Promise<MessagePolicy> {
  const [row] = await ctx.db
    .select({ policy: user.messagePolicy })
    .from(user)
    .where(eq(user.id, viewer.id))
    .limit(1);
  return row?.policy ?? "anyone";
}

export async function setMessagePolicy(
  ctx: AppContext,
  viewer: Viewer,
  input: MessagePolicyInput,
): Promise<{ policy: MessagePolicy }> {
  const { policy } = parseInput(messagePolicySchema, input, invalidAccountInput);
  await ctx.db
    .update(user)
    .set({ messagePolicy: policy, updatedAt: ctx.clock.now() })
    .where(eq(user.id, viewer.id));
  return { policy };
}

/**
 * Decision 0670: whether the recipient knows the sender: a deal between the two (active or
 * completed, on either side; a cancelled one is not a trade), or the recipient wrote to the sender
 * (a message of theirs in the pair's chat, which also covers a chat they started).
 */
async function recipientKnowsSender(tx: Queryable, recipientId: string, senderId: string): Promise<boolean> {
  const [traded] = await tx
    .select({ id: deals.id })
    .from(deals)
    .where(
      and(
        inArray(deals.state, ["active", "completed"]),
        or(
          and(eq(deals.sellerId, recipientId), eq(deals.buyerId, senderId)),
          and(eq(deals.sellerId, senderId), eq(deals.buyerId, recipientId)),
        ),
      ),
    )
    .limit(1);
  if (traded) return true;
  const [wrote] = await tx
    .select({ id: chatMessages.id })
    .from(chatMembers)
    .innerJoin(chatMessages, eq(chatMessages.chatId, chatMembers.chatId))
    .where(
      and(
        eq(chatMembers.userId, recipientId),
        eq(chatMembers.otherUserId, senderId),
        eq(chatMessages.senderId, recipientId),
      ),
    )
    .limit(1);
  return Boolean(wrote);
}

/**
 * Decisions 0670, 0672: whether a first message from `senderId` waits in the recipient's Requests.
 * `flagged`: a safety rule warned the message; from a level-0 sender (user.trust_level = 0) that
 * sends it to Requests whatever the recipient's setting. Otherwise the recipient's 'known' setting
 * does, unless they know the sender.
 */
export async function firstMessageGoesToRequests(
  tx: Queryable,
  _ctx: AppContext,
  input: { senderId: string; recipientId: string; flagged?: boolean },
): Promise<boolean> {
  const people = await tx
    .select({ id: user.id, trustLevel: user.trustLevel, policy: user.messagePolicy })
    .from(user)
    .where(inArray(user.id, [input.senderId, input.recipientId]));
  const sender = people.find((person) => person.id === input.senderId);
  const recipient = people.find((person) => person.id === input.recipientId);
  if (input.flagged && sender?.trustLevel === 0) return true;
  if (recipient?.policy !== "known") return false;
  return !(await recipientKnowsSender(tx, input.recipientId, input.senderId));
}

/** Puts the recipient's side of a new chat in Requests (decision 0671). */
export async function holdAsRequest(tx: Tx, chatId: string, recipientId: string): Promise<void> {
  await tx
    .update(chatMembers)
    .set({ requestState: "pending" })
    .where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.userId, recipientId)));
}

/**
 * Whether the recipient hears of a message in this chat (a notification, its e-mail and push):
 * not while their side waits in Requests or was declined (decision 0671).
 */
export async function recipientHears(tx: Queryable, chatId: string, recipientId: string): Promise<boolean> {
  const [row] = await tx
    .select({ state: chatMembers.requestState })
    .from(chatMembers)
    .where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.userId, recipientId)))
    .limit(1);
  return row !== undefined && row.state === null;
}

/** The Requests tab's count (chat_members_requests_idx); never part of the header's total (spec 1 §2). */
export async function countRequests(ctx: AppContext, viewer: Viewer | null): Promise<number> {
  if (!viewer) return 0;
  const [row] = await ctx.db
    .select({ n: count() })
    .from(chatMembers)
    .where(
      and(
        eq(chatMembers.userId, viewer.id),
        eq(chatMembers.campusId, viewer.campusId),
        eq(chatMembers.requestState, "pending"),
      ),
    );
  return row?.n ?? 0;
}

/** The viewer's pending request in this chat, locked; anyone else's chat, or one not pending, is 404. */
async function requirePendingRequest(tx: Tx, viewer: Viewer, chatId: string) {
  if (!isUuid(chatId)) throw requestNotFound();
  const [row] = await tx
    .select({ chatId: chatMembers.chatId, otherUserId: chatMembers.otherUserId })
    .from(chatMembers)
    .innerJoin(chats, eq(chats.id, chatMembers.chatId))
    .where(
      and(
        eq(chatMembers.chatId, chatId),
        eq(chatMembers.userId, viewer.id),
        eq(chatMembers.campusId, viewer.campusId),
        eq(chatMembers.requestState, "pending"),
      ),
    )
    .limit(1)
    .for("update", { of: chatMembers });
  if (!row) throw requestNotFound();
  return row;
}

function requestNotFound(): ChatError {
  return new ChatError("not-found", REQUEST_MESSAGES.notARequest);
}

/**
 * Decision 0671: Accept moves the conversation to the inbox, unread if it was. Only the viewer's
 * own side changes; the sender is not told (their screen shows nothing new).
 */
export async function acceptRequest(ctx: AppContext, viewer: Viewer | null, chatId: string): Promise<void> {
  const member = requireReader(viewer);
  await ctx.db.transaction(async (tx) => {
    const request = await requirePendingRequest(tx, member, chatId);
    await tx
      .update(chatMembers)
      .set({ requestState: null })
      .where(and(eq(chatMembers.chatId, request.chatId), eq(chatMembers.userId, member.id)));
    // The viewer's other tabs read the inbox, the Requests count and the header's total again.
    await publishChatEvent(tx, [member.id], { chatId: request.chatId, kind: "read" });
  });
}

/**
 * Decision 0671: Decline takes the conversation from the viewer's lists for good: later messages
 * from the sender stay out of sight, unheard. It comes back only if the viewer writes to the sender.
 */
export async function declineRequest(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
): Promise<{ otherUserId: string }> {
  const member = requireReader(viewer);
  return ctx.db.transaction(async (tx) => {
    const request = await requirePendingRequest(tx, member, chatId);
    await tx
      .update(chatMembers)
      .set({ requestState: "declined" })
      .where(and(eq(chatMembers.chatId, request.chatId), eq(chatMembers.userId, member.id)));
    await publishChatEvent(tx, [member.id], { chatId: request.chatId, kind: "read" });
    return { otherUserId: request.otherUserId };
  });
}

/** Decision 0671: Block beside Accept and Decline: the request is declined and the sender blocked (decision 0230). */
export async function blockRequestSender(
  ctx: AppContext,
  viewer: Viewer | null,
  chatId: string,
): Promise<void> {
  const { otherUserId } = await declineRequest(ctx, viewer, chatId);
  await blockUser(ctx, viewer, otherUserId);
}

/** The inbox's rows leave out Requests and declined conversations (decision 0671). */
export function inInbox() {
  return isNull(chatMembers.requestState);
}

/** The Requests tab's rows. */
export function inRequests() {
  return sql`${chatMembers.requestState} = 'pending'`;
}
