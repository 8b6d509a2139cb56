import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { savedSearchMatchQueue } from "../db/schema";

/** Decision 0621: the job that matches new listings against their campus's saved searches. */
export const SAVED_SEARCH_MATCH_JOB = "match-saved-searches";

/**
 * Decision 0621: a top-level post published, or a listing Available again (after a cancelled
 * deal or its owner's own change), waits to be matched against its campus's saved searches.
 * Called in the transaction that made it so: the queue row commits with the change, or neither
 * does. Already queued: nothing changes (the job goes on from where it is; each hit is written
 * once whatever runs twice).
 */
export async function enqueueSavedSearchMatch(
  tx: Queryable,
  ctx: Pick<AppContext, "clock">,
  post: { id: string; campusId: string },
): Promise<void> {
  await tx
    .insert(savedSearchMatchQueue)
    .values({ postId: post.id, campusId: post.campusId, afterId: null, enqueuedAt: ctx.clock.now() })
    .onConflictDoNothing();
}

/**
 * After the commit that queued a listing: the matcher runs now rather than at its next tick, so
 * an instant alert arrives within seconds. Where no jobs run (commands, tests) it does nothing.
 */
export function wakeSavedSearchMatcher(ctx: Pick<AppContext, "jobs">): void {
  ctx.jobs?.wake(SAVED_SEARCH_MATCH_JOB);
}
