import { inArray, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { type NotificationType, posts } from "../db/schema";
import { rowsOf } from "../realtime/backlog";
import { userEventCtes } from "../realtime/events";
import { notificationEmailInsert } from "./email";
import type { TradeEvent } from "./texts";

/**
 * Decision 0250: one notify() every capability calls inside its own transaction.
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
  /** The trade's row it is about (decision 0600), and what happened to it. */
  offerId?: string | null;
  dealId?: string | null;
  meetupId?: string | null;
  reviewId?: string | null;
  event?: TradeEvent | null;
  /** Decision 0620: the saved search a 'search match' is for. */
  savedSearchId?: string | null;
  /**
   * Decision 0621: written already e-mailed, with no pending e-mail (a saved search's instant
   * e-mails are at most one an hour; the notice and its push still go).
   */
  withoutEmail?: boolean;
  /** Decision 0640: the price drop a 'price drop' notice tells (its words are read from that row). */
  priceDropId?: string | null;
}

/** Kinds that say the same thing however often it happens: one row per actor and post is enough. */
const ONCE_PER_ACTOR: ReadonlySet<NotificationType> = new Set(["like", "available again"]);

/**
 * Writes one notification unless the actor is the recipient (spec 2 §5: only when the actor is
 * not the content owner) or a block stands between them, either way (decisions 0230, 0462).
 * Returns the new row's id, or null when nothing was notified.
 *
 * Decision 0330: one statement, so notify() adds one round trip to the write that causes it:
 * the row (unless blocked or already told), whether a push is owed (the user has a subscription;
 * whether they are reading live is the worker's question, asked when it sends), the realtime
 * event (userEventCtes, the realtime layer's own parts), and the pending e-mail when the
 * recipient's preference wants it.
 */
export async function notify(tx: Queryable, ctx: AppContext, input: NotifyInput): Promise<string | null> {
  const [id] = await notifyAll(tx, ctx, [input]);
  return id ?? null;
}

/**
 * notify() for many notices at once (decision 0603: an accept that closes 49 offers): one
 * statement per run of notices of one type to different people, each as notify() would write it.
 * Returns the ids of the notices written (the blocked and already-told ones write none).
 */
export async function notifyAll(
  tx: Queryable,
  ctx: AppContext,
  inputs: readonly NotifyInput[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const batch of statementBatches(inputs.filter((input) => input.to !== input.actorId))) {
    ids.push(...(await insertNotices(tx, ctx, batch)));
  }
  return ids;
}

/**
 * Runs of one type with each recipient once: a statement moves each recipient's realtime cursor
 * once (an upsert cannot touch one row twice), and its e-mail row follows that type's preference.
 */
function statementBatches(inputs: readonly NotifyInput[]): NotifyInput[][] {
  const batches: NotifyInput[][] = [];
  for (const input of inputs) {
    const batch = batches.find(
      (candidate) => candidate[0]?.type === input.type && !candidate.some((other) => other.to === input.to),
    );
    if (batch) batch.push(input);
    else batches.push([input]);
  }
  return batches;
}

async function insertNotices(
  tx: Queryable,
  ctx: AppContext,
  batch: readonly NotifyInput[],
): Promise<string[]> {
  const type = batch[0]?.type;
  if (!type) return [];
  const now = ctx.clock.now();
  const rows = sql.join(
    batch.map(
      (
        input,
      ) => sql`(${input.campusId}::text, ${input.to}::text, ${input.actorId}::text, ${input.postId ?? null}::uuid,
        ${input.commentId ?? null}::uuid, ${input.chatId ?? null}::uuid, ${input.messageId ?? null}::uuid,
        ${input.offerId ?? null}::uuid, ${input.dealId ?? null}::uuid, ${input.meetupId ?? null}::uuid,
        ${input.reviewId ?? null}::uuid, ${input.event ?? null}::text, ${input.savedSearchId ?? null}::uuid,
        ${input.withoutEmail === true}::boolean, ${input.priceDropId ?? null}::uuid)`,
    ),
    sql`, `,
  );
  // Saving, unsaving and saving again tells the owner once, not every time.
  const toldBefore = ONCE_PER_ACTOR.has(type)
    ? sql`and (i.post_id is null or not exists (
        select 1 from notifications
        where user_id = i.user_id and post_id = i.post_id and actor_id = i.actor_id and type = ${type}
      ))`
    : sql``;
  const inserted = rowsOf<{ id: string }>(
    await tx.execute(sql`
      with input (campus_id, user_id, actor_id, post_id, comment_id, chat_id, message_id,
                  offer_id, deal_id, meeting_id, review_id, event, saved_search_id, without_email, price_drop_id)
        as (values ${rows}),
      notification as (
        insert into notifications
          (campus_id, user_id, actor_id, type, post_id, comment_id, chat_id, message_id,
           offer_id, deal_id, meetup_id, review_id, event, saved_search_id, price_drop_id, emailed_at, push_pending,
           created_at)
        select i.campus_id, i.user_id, i.actor_id, ${type}::text, i.post_id, i.comment_id, i.chat_id,
          i.message_id, i.offer_id, i.deal_id, i.meeting_id, i.review_id, i.event, i.saved_search_id, i.price_drop_id,
          case when i.without_email then ${now.toISOString()}::timestamptz end,
          exists (select 1 from push_subscriptions p where p.user_id = i.user_id),
          ${now.toISOString()}::timestamptz
        from input i
        -- Decision 0462: a block either way, and neither is told of the other.
        where not exists (select 1 from user_blocks where blocker_id = i.user_id and blocked_id = i.actor_id)
          and not exists (select 1 from user_blocks where blocker_id = i.actor_id and blocked_id = i.user_id)
          ${toldBefore}
        returning id, user_id, type, emailed_at
      ),
      notification_to_mail as (select user_id from notification where emailed_at is null),
      -- Decision 0210: ids only; the list and the badge refetch through their loaders.
      notification_event as (
        select user_id, 'notification'::text as type, jsonb_build_object('id', id, 'kind', type) as data
        from notification
      ),
      ${userEventCtes("notification_event")},
      notification_mail as (${notificationEmailInsert(ctx, "notification_to_mail", type, now)})
      select n.id::text as id from notification n where exists (select 1 from realtime_event)`),
  );
  return inserted.map((row) => row.id);
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
 * Decision 0250 'who is notified' for a new comment or reply (spec 2 §3 types), each person once,
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

/**
 * Decision 0543: a moderation notice to a student, in the transaction of the staff action it
 * tells of: the notification row naming the log row (its words are read from that row), and the
 * student's live event. Blocks do not apply (a student cannot block moderation). `actorId` is
 * the staff member, kept for the record and never shown. The e-mail goes on its own
 * (server/moderation/notices.ts), so the row is marked e-mailed and owes no push (a push's words
 * would name the actor).
 */
export async function notifyModeration(
  tx: Queryable,
  ctx: AppContext,
  input: { to: string; actorId: string; campusId: string; moderationLogId: string },
): Promise<void> {
  await insertNoticeWithItsOwnMail(tx, ctx, { ...input, type: "moderation" });
}

/**
 * A notice about the student's own account that carries its own e-mail: the data archive is
 * ready (decision 0570: the link is only in the e-mail), the verified badge lapses soon (decision
 * 0681: server/accounts/badge.ts sends the reminder). The student is its own actor (no one else
 * did anything), and the row is already 'e-mailed'.
 */
export async function notifyOwnAccount(
  tx: Queryable,
  ctx: AppContext,
  input: { to: string; campusId: string; type: "data export" | "badge" },
): Promise<void> {
  await insertNoticeWithItsOwnMail(tx, ctx, { ...input, actorId: input.to, moderationLogId: null });
}

/** A notice that carries its own e-mail: inserted already e-mailed, announced live to its student. */
async function insertNoticeWithItsOwnMail(
  tx: Queryable,
  ctx: AppContext,
  input: {
    to: string;
    actorId: string;
    campusId: string;
    type: "moderation" | "data export" | "badge";
    moderationLogId: string | null;
  },
): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await tx.execute(sql`
    with notification as (
      insert into notifications (campus_id, user_id, actor_id, type, moderation_log_id, emailed_at, created_at)
      values (${input.campusId}::text, ${input.to}::text, ${input.actorId}::text, ${input.type}::text,
        ${input.moderationLogId}::uuid, ${now}::timestamptz, ${now}::timestamptz)
      returning id, user_id, type
    ),
    notification_event as (
      select user_id, 'notification'::text as type, jsonb_build_object('id', id, 'kind', type) as data
      from notification
    ),
    ${userEventCtes("notification_event")}
    select count(*) from realtime_event`);
}
