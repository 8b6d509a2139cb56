import { and, desc, eq, gt } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { savedSearchHits } from "../db/schema";

/** The most new matches one opening marks (the newest; a page of /search is 10). */
export const MARKS_MAX = 200;

/**
 * Decision 0621: 'Opening a saved search shows its results with the new ones since last time
 * marked'. The listings delivered to the viewer's own saved search of this address
 * (findSavedSearch) after `since` (the previous opening, which the settings' Open puts in the
 * address), the newest MARKS_MAX: the first page's loader answers them all, so the pages that
 * scroll in after it are marked too. Only the viewer's own hits are read, so an edited `since`
 * shows nothing of anyone else's; an unreadable one marks nothing.
 */
export async function newMatchIds(
  ctx: AppContext,
  viewer: Viewer,
  input: { savedSearchId: string; since: string | null },
): Promise<string[]> {
  if (!input.since) return [];
  const since = new Date(input.since);
  if (Number.isNaN(since.getTime()) || input.since.length > 40) return [];
  const rows = await ctx.db
    .select({ postId: savedSearchHits.postId })
    .from(savedSearchHits)
    .where(
      and(
        eq(savedSearchHits.savedSearchId, input.savedSearchId),
        eq(savedSearchHits.userId, viewer.id),
        gt(savedSearchHits.createdAt, since),
      ),
    )
    .orderBy(desc(savedSearchHits.createdAt))
    .limit(MARKS_MAX);
  return rows.map((row) => row.postId);
}
