import { and, desc, eq } from "drizzle-orm";
import type { AppContext } from "../context";
import { chatMessages, posts, strikes, user } from "../db/schema";
import { excerptOf } from "./excerpts";
import { REPORT_REASON_LABELS } from "./rules.shared";

/** Earlier strikes and removed items the item page lists, newest first (decision 0541). */
const RECORD_LIMIT = 20;

/** Decision 0541: the author's record beside an item, so a decision weighs what came before. */
export interface AuthorRecord {
  id: string;
  name: string;
  username: string;
  img: string | null;
  email: string;
  campusId: string;
  joinedAt: string;
  verified: boolean;
  schoolVerified: boolean;
  /** The end of a suspension running now; null when not suspended. */
  suspendedUntil: string | null;
  strikes: {
    id: string;
    action: string;
    reasonLabel: string;
    publicReason: string;
    createdAt: string;
    suspendedUntil: string | null;
    overruled: boolean;
  }[];
  removed: { kind: "post" | "comment" | "message"; id: string; excerpt: string; createdAt: string }[];
}

export async function authorRecord(ctx: AppContext, userId: string): Promise<AuthorRecord | null> {
  const now = ctx.clock.now();
  const [person] = await ctx.db.select().from(user).where(eq(user.id, userId)).limit(1);
  if (!person) return null;
  const [strikeRows, removedPosts, removedMessages] = await Promise.all([
    ctx.db
      .select()
      .from(strikes)
      .where(eq(strikes.userId, userId))
      .orderBy(desc(strikes.createdAt), desc(strikes.id))
      .limit(RECORD_LIMIT),
    ctx.db
      .select({ id: posts.id, parentId: posts.parentId, text: posts.textPlain, createdAt: posts.createdAt })
      .from(posts)
      .where(and(eq(posts.authorId, userId), eq(posts.moderationState, "removed")))
      .orderBy(desc(posts.createdAt))
      .limit(RECORD_LIMIT),
    ctx.db
      .select({ id: chatMessages.id, text: chatMessages.text, createdAt: chatMessages.createdAt })
      .from(chatMessages)
      .where(and(eq(chatMessages.senderId, userId), eq(chatMessages.moderationState, "removed")))
      .orderBy(desc(chatMessages.createdAt))
      .limit(RECORD_LIMIT),
  ]);
  const suspended = person.suspendedUntil && person.suspendedUntil > now ? person.suspendedUntil : null;
  return {
    id: person.id,
    name: `${person.firstName} ${person.lastName}`.trim(),
    username: person.username,
    img: person.img,
    email: person.email,
    campusId: person.campusId,
    joinedAt: person.createdAt.toISOString(),
    verified: person.verified,
    schoolVerified: person.schoolVerified,
    suspendedUntil: suspended?.toISOString() ?? null,
    strikes: strikeRows.map((strike) => ({
      id: strike.id,
      action: strike.action,
      reasonLabel:
        REPORT_REASON_LABELS[strike.reasonCode as keyof typeof REPORT_REASON_LABELS] ?? strike.reasonCode,
      publicReason: strike.publicReason,
      createdAt: strike.createdAt.toISOString(),
      suspendedUntil: strike.suspendedUntil?.toISOString() ?? null,
      overruled: strike.overruledAt !== null,
    })),
    removed: [
      ...removedPosts.map((row) => ({
        kind: row.parentId ? ("comment" as const) : ("post" as const),
        id: row.id,
        excerpt: excerptOf(row.text),
        createdAt: row.createdAt.toISOString(),
      })),
      ...removedMessages.map((row) => ({
        kind: "message" as const,
        id: row.id,
        excerpt: excerptOf(row.text),
        createdAt: row.createdAt.toISOString(),
      })),
    ].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
  };
}
