import { inArray } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { appeals, type moderationItems, posts, reports, reviews, user } from "../db/schema";

/** Characters of an item's content the queue shows (decision 0541). */
export const EXCERPT_LENGTH = 140;

export function excerptOf(text: string, length = EXCERPT_LENGTH): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1).trimEnd()}…` : flat;
}

type ItemKey = Pick<typeof moderationItems.$inferSelect, "id" | "targetKind" | "targetId" | "targetUserId">;

/**
 * Decision 0541: a short excerpt of each item's content, as its author wrote it (a post's or
 * comment's text, the reported chat message from its report's snapshot, a member's name and bio,
 * an appeal's text), and the name of the student it is about. A few batched queries for a page.
 */
export async function itemExcerpts(
  db: Queryable,
  items: readonly ItemKey[],
): Promise<Map<string, { text: string; studentName: string | null }>> {
  const ids = (kinds: string[]) =>
    items.filter((item) => kinds.includes(item.targetKind)).map((item) => item.targetId);
  const postIds = ids(["post", "comment"]);
  const appealIds = ids(["appeal"]);
  const reviewIds = ids(["review"]);
  const messageItems = items.filter((item) => item.targetKind === "message").map((item) => item.id);
  const userIds = [...new Set(items.flatMap((item) => (item.targetUserId ? [item.targetUserId] : [])))];
  const [postRows, appealRows, snapshotRows, userRows, reviewRows] = await Promise.all([
    postIds.length === 0
      ? []
      : db
          .select({ id: posts.id, text: posts.textPlain, imgCount: posts.imgCount })
          .from(posts)
          .where(inArray(posts.id, postIds)),
    appealIds.length === 0
      ? []
      : db.select({ id: appeals.id, text: appeals.text }).from(appeals).where(inArray(appeals.id, appealIds)),
    messageItems.length === 0
      ? []
      : db
          .select({ itemId: reports.itemId, targetId: reports.targetId, snapshot: reports.snapshot })
          .from(reports)
          .where(inArray(reports.itemId, messageItems)),
    userIds.length === 0
      ? []
      : db
          .select({ id: user.id, firstName: user.firstName, lastName: user.lastName, bio: user.bio })
          .from(user)
          .where(inArray(user.id, userIds)),
    // Decision 0619: a review's stars and public text; its private note is its subject's alone.
    reviewIds.length === 0
      ? []
      : db
          .select({ id: reviews.id, stars: reviews.stars, text: reviews.publicText })
          .from(reviews)
          .where(inArray(reviews.id, reviewIds)),
  ]);
  const reviewText = new Map(
    reviewRows.map((row) => [row.id, `${"★".repeat(row.stars)} ${row.text}`.trim()]),
  );
  const postText = new Map(
    postRows.map((row) => [row.id, row.text || (row.imgCount > 0 ? `${row.imgCount} photo(s)` : "")]),
  );
  const appealText = new Map(appealRows.map((row) => [row.id, row.text]));
  const messageText = new Map<string, string>();
  for (const row of snapshotRows) {
    const reported = row.snapshot?.messages.find((message) => message.id === row.targetId);
    if (reported && !messageText.has(row.itemId)) messageText.set(row.itemId, reported.text || "Photo");
  }
  const people = new Map(userRows.map((row) => [row.id, row]));
  const result = new Map<string, { text: string; studentName: string | null }>();
  for (const item of items) {
    const person = item.targetUserId ? people.get(item.targetUserId) : undefined;
    const studentName = person ? `${person.firstName} ${person.lastName}`.trim() : null;
    let text: string;
    switch (item.targetKind) {
      case "post":
      case "comment":
        text = postText.get(item.targetId) ?? "This content was deleted by its author.";
        break;
      case "message":
        text = messageText.get(item.id) ?? "";
        break;
      case "appeal":
        text = appealText.get(item.targetId) ?? "";
        break;
      case "review":
        text = reviewText.get(item.targetId) ?? "This review was deleted.";
        break;
      default:
        text = person ? [studentName, person.bio].filter(Boolean).join(" · ") : "This account was deleted.";
    }
    result.set(item.id, { text: excerptOf(text), studentName });
  }
  return result;
}
