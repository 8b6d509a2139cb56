import { isDeepStrictEqual } from "node:util";
import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import type { AppContext } from "../context";
import { dataMigrations, posts } from "../db/schema";
import { fitRichText, richTextToPlainText } from "./rich-text.shared";
import { richTextStateSchema } from "./rich-text-schema.shared";

/** The data_migrations row of this migration; a new normaliser would take a new name. */
export const NORMALISE_POSTS_MIGRATION = "0115-normalise-post-text";

export interface NormaliseReport {
  /** True when it had already run on this database: nothing was read. */
  skipped: boolean;
  examined: number;
  rewritten: number;
  /** Stored values that are not a valid state: left as they are (they render as nothing, decision 0080). */
  unreadable: number;
}

/**
 * Decision 0115: brings the text of posts stored before the node cap
 * through the same normaliser as new posts (fitRichText: merged runs, no empty runs,
 * within MAX_RICH_TEXT_NODES; formatting dropped, then nodes cut, only when a text is
 * still over). Run at start-up after the SQL migrations, once per database
 * (data_migrations); reads posts in keyset batches by id and rewrites only the rows
 * whose text changes. Safe to run twice or in two processes at once.
 */
export async function normaliseStoredPosts(
  ctx: Pick<AppContext, "db" | "log">,
  options: { batchSize?: number } = {},
): Promise<NormaliseReport> {
  const report: NormaliseReport = { skipped: false, examined: 0, rewritten: 0, unreadable: 0 };
  const [done] = await ctx.db
    .select({ name: dataMigrations.name })
    .from(dataMigrations)
    .where(eq(dataMigrations.name, NORMALISE_POSTS_MIGRATION));
  if (done) return { ...report, skipped: true };

  const batchSize = options.batchSize ?? 500;
  let lastId: string | null = null;
  for (;;) {
    const batch: { id: string; text: unknown }[] = await ctx.db
      .select({ id: posts.id, text: posts.text })
      .from(posts)
      .where(and(isNotNull(posts.text), lastId ? gt(posts.id, lastId) : undefined))
      .orderBy(asc(posts.id))
      .limit(batchSize);
    if (batch.length === 0) break;
    lastId = batch[batch.length - 1]?.id ?? null;
    report.examined += batch.length;
    const changes: { id: string; text: ReturnType<typeof fitRichText> }[] = [];
    for (const row of batch) {
      const parsed = richTextStateSchema.safeParse(row.text);
      if (!parsed.success) {
        report.unreadable++;
        continue;
      }
      const fitted = fitRichText(parsed.data);
      // jsonb keeps no key order: compared as values.
      if (!isDeepStrictEqual(fitted, row.text)) changes.push({ id: row.id, text: fitted });
    }
    if (changes.length > 0) {
      await ctx.db.transaction(async (tx) => {
        for (const change of changes) {
          await tx
            .update(posts)
            .set({ text: change.text, textPlain: richTextToPlainText(change.text) })
            .where(eq(posts.id, change.id));
        }
      });
      report.rewritten += changes.length;
    }
    if (batch.length < batchSize) break;
  }
  await ctx.db.insert(dataMigrations).values({ name: NORMALISE_POSTS_MIGRATION }).onConflictDoNothing();
  if (report.rewritten > 0 || report.unreadable > 0) {
    ctx.log.info(report, "stored post texts normalised (decision 0115)");
  }
  return report;
}
