import { and, eq, gt, inArray } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { savedSearchHits } from "../db/schema";

/** The most results one page marks (a page of /search is 10). */
const MARKS_MAX = 50;

/**
 * Decision 0621: 'Opening a saved search shows its results with the new ones since last time
 * marked'. Of the listings a /search page shows, those delivered to the viewer's own saved search
 * of this address (findSavedSearch) after `since` (the previous opening, which the settings' Open puts in the
 * address). Only the viewer's own hits are read, so an edited `since` shows nothing of anyone
 * else's; an unreadable one marks nothing.
 */
export async function newMatchIds(
  ctx: AppContext,
  viewer: Viewer,
  input: { savedSearchId: string; since: string | null; postIds: readonly string[] },
): Promise<string[]> {
  if (!input.since || input.postIds.length === 0) return [];
  const since = new Date(input.since);
  if (Number.isNaN(since.getTime()) || input.since.length > 40) return [];
  const rows = await ctx.db
    .select({ postId: savedSearchHits.postId })
    .from(savedSearchHits)
    .where(
      and(
        eq(savedSearchHits.savedSearchId, input.savedSearchId),
        eq(savedSearchHits.userId, viewer.id),
        inArray(savedSearchHits.postId, input.postIds.slice(0, MARKS_MAX)),
        gt(savedSearchHits.createdAt, since),
      ),
    );
  return rows.map((row) => row.postId);
}
