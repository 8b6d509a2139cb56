import { eq } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { user } from "../db/schema";
import { checkSafety } from "./check";

/**
 * docs/product/safety.md 'Listings': a post's text through the one safety check, inside the
 * transaction that creates or edits it. Phone numbers, e-mail addresses and links are refused
 * with a message, as are the block rules of scope listing or both; warn and nudge rules do not
 * apply to a listing. Throws SafetyError 'safety-blocked'; nothing is written.
 */
export async function checkListingSafety(
  ctx: Pick<AppContext, "config" | "clock">,
  tx: Tx,
  authorId: string,
  plainText: string,
): Promise<void> {
  await checkPostTextSafety(ctx, tx, authorId, plainText, "listing");
}

/**
 * docs/product/safety.md 'Comments': a comment's text, inside the transaction that writes it,
 * against the block rules for both chat and listings (verification codes, shorteners,
 * look-alike links, posing as staff). Throws SafetyError 'safety-blocked'; nothing is written.
 */
export async function checkCommentSafety(
  ctx: Pick<AppContext, "config" | "clock">,
  tx: Tx,
  authorId: string,
  plainText: string,
): Promise<void> {
  await checkPostTextSafety(ctx, tx, authorId, plainText, "comment");
}

async function checkPostTextSafety(
  ctx: Pick<AppContext, "config" | "clock">,
  tx: Tx,
  authorId: string,
  plainText: string,
  scope: "listing" | "comment",
): Promise<void> {
  if (plainText.trim() === "") return;
  const [author] = await tx
    .select({ createdAt: user.createdAt })
    .from(user)
    .where(eq(user.id, authorId))
    .limit(1);
  if (!author) return;
  await checkSafety(tx, ctx, {
    writer: { id: authorId, createdAt: author.createdAt },
    scope,
    text: plainText,
  });
}
