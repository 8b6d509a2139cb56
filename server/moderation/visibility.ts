import { and, eq, inArray, type Placeholder, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { posts, user } from "../db/schema";

/**
 * Decision 0546: who sees a post or comment, written once for every read that shows one to
 * someone (the lists, search, sponsored slots, threads, the post page, shared cards and
 * notifications; docs/product/staff-and-moderation.md 'What hidden, removed and suspended mean').
 *
 * - 'removed' (a moderator's Remove): nobody, its author included.
 * - 'hidden' (reports, before review): only its author.
 * - an author suspended at `now` (user.suspended_until > now): only the author, who keeps reading
 *   their own posts while the suspension lasts.
 *
 * `now` comes from ctx.clock and is a parameter (a placeholder in prepared statements, as the
 * feed's expiry cutoff is), so a suspension ends when the clock passes its end with no job.
 * Every condition is a Filter on rows the list's index already gives in order: it never changes
 * which index serves a list, and a page stays full because the LIMIT counts only rows kept.
 */

/** A value the query carries: a literal, a placeholder of a prepared statement, or SQL. */
type Param = string | Placeholder | SQLWrapper;

/** The clock's now as the queries take it: ISO text both drivers read the same way. */
export function visibilityNow(now: Date): string {
  return now.toISOString();
}

/**
 * The condition for a query that has `posts` joined to its author as `user` (the post lists,
 * threads, the post page, the running ads): the row is shown to `viewerId` (null: a visitor).
 */
export function shownTo(viewerId: Param | null, now: Param): SQL {
  const shown = sql`(${posts.moderationState} is null and (${user.suspendedUntil} is null or ${user.suspendedUntil} <= ${now}::timestamptz))`;
  if (viewerId === null) return shown;
  return sql`(${shown} or (${posts.authorId} = ${viewerId} and ${posts.moderationState} is distinct from 'removed'))`;
}

/**
 * The same rule for a read of `posts` that has not joined the author (search chooses its page on
 * posts alone): the author's suspension is one primary-key probe per candidate row.
 * `authorId` and `moderationState` are the columns of whatever relation holds the candidates.
 */
export function shownToWithoutAuthor(
  viewerId: Param | null,
  now: Param,
  columns: { authorId: SQLWrapper; moderationState: SQLWrapper } = {
    authorId: posts.authorId,
    moderationState: posts.moderationState,
  },
): SQL {
  const notSuspended = sql`not exists (select 1 from ${user} where ${user.id} = ${columns.authorId} and ${user.suspendedUntil} > ${now}::timestamptz)`;
  const shown = sql`(${columns.moderationState} is null and ${notSuspended})`;
  if (viewerId === null) return shown;
  return sql`(${shown} or (${columns.authorId} = ${viewerId} and ${columns.moderationState} is distinct from 'removed'))`;
}

/**
 * For notifications (decision 0546): true when every post the notification row names (its post
 * and its comment) is shown to the notification's recipient. A notification of hidden, removed or
 * suspended content is neither e-mailed nor pushed, and its line in the list links nowhere.
 * `row` is the notifications relation (the table, or an alias) with post_id, comment_id, user_id.
 */
export function notificationContentShown(
  row: { postId: SQLWrapper; commentId: SQLWrapper; userId: SQLWrapper },
  now: Param,
): SQL<boolean> {
  return sql<boolean>`not exists (
    select 1 from posts np join "user" na on na.id = np.author_id
    where np.id in (${row.postId}, ${row.commentId})
      and not (
        (np.moderation_state is null and (na.suspended_until is null or na.suspended_until <= ${now}::timestamptz))
        or (np.author_id = ${row.userId} and np.moderation_state is distinct from 'removed')
      )
  )`;
}

/**
 * Whether each of `postIds` exists and is shown to `viewerId` at `now` (decision 0546): a student
 * cannot comment on, save or list the savers of a post they are not shown, even by its id.
 */
export async function postsShownTo(
  db: Queryable,
  postIds: readonly string[],
  viewerId: string | null,
  now: Date,
): Promise<boolean> {
  const ids = [...new Set(postIds)];
  const [row] = await db
    .select({ shown: sql<number>`count(*)::int` })
    .from(posts)
    .innerJoin(user, eq(user.id, posts.authorId))
    .where(and(inArray(posts.id, ids), shownTo(viewerId, visibilityNow(now))));
  return Number(row?.shown ?? 0) === ids.length;
}
