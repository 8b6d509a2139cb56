import { randomUUID } from "node:crypto";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { postMedia, posts } from "../db/schema";
import type { CheckedText } from "./input";
import {
  type CheckedPostFile,
  mediaRows,
  removePostFiles,
  type StoredPostFile,
  storedFileKeys,
  storePostFiles,
} from "./media";
import { assertWithinPostingLimits, lockAuthor } from "./posting-limits";

type AuthoredPostRow = typeof posts.$inferInsert & { id: string; campusId: string; authorId: string };

/** What a new post or comment is, checked: the columns it sets besides id, text, media and times. */
export interface AuthoredDraft {
  campusId: string;
  authorId: string;
  text: CheckedText;
  files: readonly CheckedPostFile[];
  /** parent_id / root_id of a comment; category and listing fields of a post. */
  columns: Omit<
    typeof posts.$inferInsert,
    "id" | "campusId" | "authorId" | "text" | "textPlain" | "imgCount" | "createdAt" | "lastModified"
  >;
}

/**
 * Writes a post or a comment (decision 0173: the one path createPost and createComment share): its
 * files first, then one transaction in which `within` takes what it must lock, calls `insert`
 * and writes what goes with the row; the files are removed again if the transaction fails.
 */
export async function writeAuthoredPost(
  ctx: AppContext,
  draft: AuthoredDraft,
  within: (tx: Tx, row: { id: string; now: Date }, insert: () => Promise<void>) => Promise<void>,
): Promise<{ id: string }> {
  const id = randomUUID();
  const stored = await storePostFiles(ctx, id, draft.files);
  const now = ctx.clock.now();
  try {
    await ctx.db.transaction((tx) =>
      within(tx, { id, now }, () =>
        insertAuthoredPost(
          ctx,
          tx,
          {
            ...draft.columns,
            id,
            campusId: draft.campusId,
            type: "post",
            authorId: draft.authorId,
            text: draft.text.state,
            textPlain: draft.text.plainText,
            imgCount: stored.length,
            createdAt: now,
            lastModified: now,
          },
          stored,
        ),
      ),
    );
  } catch (error) {
    await removePostFiles(ctx, stored.flatMap(storedFileKeys));
    throw error;
  }
  return { id };
}

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
