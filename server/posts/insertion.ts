import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { postMedia, posts } from "../db/schema";
import { mediaRows, type StoredPostFile } from "./media";
import { assertWithinPostingLimits, lockAuthor } from "./posting-limits";

type AuthoredPostRow = typeof posts.$inferInsert & { id: string; campusId: string; authorId: string };

/**
 * Writes a post or a comment with its photos and videos inside the caller's transaction. The
 * author's row is locked first, so parallel sends are counted one after another against the
 * posting limits (decision 0116); the caller takes any thread locks before calling, as
 * removeWithReplies takes posts before the author's row.
 */
export async function insertAuthoredPost(
  ctx: AppContext,
  tx: Tx,
  row: AuthoredPostRow,
  stored: readonly StoredPostFile[],
): Promise<void> {
  await lockAuthor(tx, row.authorId);
  await assertWithinPostingLimits(ctx, tx, row.authorId);
  await tx.insert(posts).values(row);
  if (stored.length > 0) await tx.insert(postMedia).values(mediaRows(row.id, row.campusId, stored));
}
