import { and, eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { savedSearches, savedSearchHits } from "../db/schema";
import { notifyAll } from "../notifications/notify";
import { rowsOf } from "./terms";

/**
 * Decision 0621: the instant alerts of one batch's new hits, in the matcher's transaction, so a
 * hit and its notice commit together (a rerun finds the hit written and tells no one again).
 *
 * - One notice per saved search: 'New match for "desk lamp"'. A match that comes while the
 *   search's last notice is still unread and less than GROUP_MS old joins it instead
 *   ('3 new matches for "desk lamp"'), so several listings arriving together are one line, one
 *   push. A notice counts the hits stamped with its own time (notified_at = its created_at).
 * - The notice goes through notifyAll, so it is live (realtime), pushed, and blocked people are
 *   never told of each other.
 * - E-mail: at most one an hour per saved search (last_instant_mail_at), and only for a student
 *   who wants e-mail about what they saved; every other notice is written already e-mailed.
 * - Every told hit is marked notified and e-mailed, so the daily digest never lists it.
 */

/** Matches that come within this long of a still unread notice of their search join it. */
export const GROUP_MS = 10 * 60 * 1000;
/** At most one instant e-mail an hour per saved search (decision 0620). */
export const INSTANT_MAIL_EVERY_MS = 60 * 60 * 1000;

export async function tellInstantMatches(
  ctx: AppContext,
  tx: Tx,
  listing: { id: string; campusId: string; authorId: string },
  searches: readonly {
    id: string;
    userId: string;
    wantsMail: boolean;
    lastInstantMailAt: string | null;
  }[],
  now: Date,
): Promise<void> {
  if (searches.length === 0) return;
  const ids = searches.map((search) => search.id);
  const open = rowsOf<{ savedSearchId: string; createdAt: string }>(
    await tx.execute(sql`
      select distinct on (saved_search_id) saved_search_id as "savedSearchId", created_at::text as "createdAt"
      from notifications
      where saved_search_id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and type = 'search match' and not read
        and created_at > ${new Date(now.getTime() - GROUP_MS).toISOString()}::timestamptz
      order by saved_search_id, created_at desc`),
  );
  const joined = new Map(open.map((row) => [row.savedSearchId, row.createdAt]));
  if (open.length > 0) {
    // Each joined hit takes its notice's time, all in one statement.
    await tx.execute(sql`
      update saved_search_hits h
      set notified_at = v.notified_at::timestamptz, emailed_at = ${now.toISOString()}::timestamptz
      from (values ${sql.join(
        open.map((row) => sql`(${row.savedSearchId}::uuid, ${row.createdAt}::text)`),
        sql`, `,
      )}) as v (saved_search_id, notified_at)
      where h.post_id = ${listing.id}::uuid and h.saved_search_id = v.saved_search_id`);
  }

  const alone = searches.filter((search) => !joined.has(search.id));
  if (alone.length === 0) return;
  const mailed = alone.filter(
    (search) =>
      search.wantsMail &&
      (search.lastInstantMailAt === null ||
        new Date(search.lastInstantMailAt).getTime() <= now.getTime() - INSTANT_MAIL_EVERY_MS),
  );
  const mailedIds = new Set(mailed.map((search) => search.id));
  await notifyAll(
    tx,
    ctx,
    alone.map((search) => ({
      type: "search match" as const,
      to: search.userId,
      actorId: listing.authorId,
      campusId: listing.campusId,
      postId: listing.id,
      savedSearchId: search.id,
      withoutEmail: !mailedIds.has(search.id),
    })),
  );
  if (mailed.length > 0) {
    await tx
      .update(savedSearches)
      .set({ lastInstantMailAt: now })
      .where(inArray(savedSearches.id, [...mailedIds]));
  }
  await markTold(
    tx,
    listing.id,
    alone.map((search) => search.id),
    sql`${now.toISOString()}::timestamptz`,
    now,
  );
}

async function markTold(
  tx: Tx,
  postId: string,
  savedSearchIds: string[],
  notifiedAt: ReturnType<typeof sql>,
  now: Date,
): Promise<void> {
  await tx
    .update(savedSearchHits)
    .set({ notifiedAt: sql`${notifiedAt}`, emailedAt: now })
    .where(and(eq(savedSearchHits.postId, postId), inArray(savedSearchHits.savedSearchId, savedSearchIds)));
}
