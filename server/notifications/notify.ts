import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { type NotificationType, notifications, posts, pushSubscriptions, userBlocks } from "../db/schema";
import { publishUserEvent } from "../realtime/events";
import { queueNotificationEmail } from "./email";

/**
 * Issue 14 §1, decision 0250: one notify() every capability calls inside its own transaction.
 * It writes the notification row (spec 2 §3), the recipient's realtime event (decision 0210)
 * and, when the recipient wants e-mail for that kind, the delayed outbox row (decision 0251).
 */
export interface NotifyInput {
  type: NotificationType;
  /** spec 2 §3 to_user. */
  to: string;
  /** spec 2 §3 from_user: whoever did it. */
  actorId: string;
  campusId: string;
  /** The top-level post it is about. */
  postId?: string | null;
  /** The comment or reply that caused it. */
  commentId?: string | null;
  chatId?: string | null;
  messageId?: string | null;
}

/** Kinds that say the same thing however often it happens: one row per actor and post is enough. */
const ONCE_PER_ACTOR: ReadonlySet<NotificationType> = new Set(["like", "available again"]);

/**
 * Whether `recipientId` blocked `actorId` (issue 14 §1: nothing is notified to someone who
 * blocked the actor; the blocks of decision 0230).
 */
export async function hasBlocked(db: Queryable, recipientId: string, actorId: string): Promise<boolean> {
  const [row] = await db
    .select({ blockerId: userBlocks.blockerId })
    .from(userBlocks)
    .where(and(eq(userBlocks.blockerId, recipientId), eq(userBlocks.blockedId, actorId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Writes one notification unless the actor is the recipient (spec 2 §5: only when the actor is
 * not the content owner) or the recipient blocked the actor. Returns the new row's id, or null
 * when nothing was notified.
 */
export async function notify(tx: Queryable, ctx: AppContext, input: NotifyInput): Promise<string | null> {
  if (input.to === input.actorId) return null;
  if (await hasBlocked(tx, input.to, input.actorId)) return null;
  if (ONCE_PER_ACTOR.has(input.type) && input.postId) {
    // Saving, unsaving and saving again tells the owner once, not every time.
    const [already] = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, input.to),
          eq(notifications.postId, input.postId),
          eq(notifications.actorId, input.actorId),
          eq(notifications.type, input.type),
        ),
      )
      .limit(1);
    if (already) return null;
  }
  const now = ctx.clock.now();
  const [subscribed] = await tx
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, input.to))
    .limit(1);
  const [row] = await tx
    .insert(notifications)
    .values({
      campusId: input.campusId,
      userId: input.to,
      actorId: input.actorId,
      type: input.type,
      postId: input.postId ?? null,
      commentId: input.commentId ?? null,
      chatId: input.chatId ?? null,
      messageId: input.messageId ?? null,
      pushPending: subscribed !== undefined,
      createdAt: now,
    })
    .returning({ id: notifications.id });
  if (!row) throw new Error("notify: the notification was not written");
  // Decision 0210: ids only; the list and the badge refetch through their loaders.
  await publishUserEvent(tx, input.to, { type: "notification", data: { id: row.id, kind: input.type } });
  await queueNotificationEmail(tx, ctx, input.to, input.type, now);
  return row.id;
}

export interface NewCommentInput {
  commentId: string;
  authorId: string;
  campusId: string;
  /** What was replied to: the top-level post or a comment. */
  parentId: string;
  /** The thread's top-level post. */
  rootId: string;
  /** The parent and its ancestors up to the top-level post (createComment's locked chain). */
  threadIds: readonly string[];
}

/**
 * Issue 14 §1 'who is notified' for a new comment or reply (spec 2 §3 types), each person once,
 * by the first that applies: the author of the comment replied to gets 'comment reply'; the
 * post's owner gets 'comment' for a comment on the post and 'post interaction' for a reply deeper
 * in its thread; the authors of the other comments above the reply get 'comment interaction'.
 * Bounded by the thread's depth, not its size.
 */
export async function notifyNewComment(
  tx: Queryable,
  ctx: AppContext,
  input: NewCommentInput,
): Promise<void> {
  const ids = [...new Set([...input.threadIds, input.parentId, input.rootId])];
  const authors = await tx
    .select({ id: posts.id, authorId: posts.authorId })
    .from(posts)
    .where(inArray(posts.id, ids));
  const authorOf = new Map(authors.map((row) => [row.id, row.authorId]));
  const recipients: { to: string; type: NotificationType }[] = [];
  const add = (to: string | undefined, type: NotificationType) => {
    if (to && !recipients.some((recipient) => recipient.to === to)) recipients.push({ to, type });
  };
  const onPost = input.parentId === input.rootId;
  if (!onPost) add(authorOf.get(input.parentId), "comment reply");
  add(authorOf.get(input.rootId), onPost ? "comment" : "post interaction");
  for (const id of ids) {
    if (id !== input.parentId && id !== input.rootId) add(authorOf.get(id), "comment interaction");
  }
  for (const recipient of recipients) {
    await notify(tx, ctx, {
      type: recipient.type,
      to: recipient.to,
      actorId: input.authorId,
      campusId: input.campusId,
      postId: input.rootId,
      commentId: input.commentId,
    });
  }
}
