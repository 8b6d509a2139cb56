import type { Queryable } from "../db/client";
import { posts } from "../db/schema";

export interface NewUserPostInput {
  authorId: string;
  campusId: string;
  at: Date;
}

/**
 * spec 1 §4 'School verification': joining a campus announces itself with a post of
 * type 'new user' (shown as 'has joined the community', spec 2 §2; left out of profile
 * lists). It has no text and no media. Takes the caller's transaction, so the
 * announcement exists exactly when the verification does. It does not count in the
 * author's totalPosts: it is not something they wrote.
 */
export async function insertNewUserPost(db: Queryable, input: NewUserPostInput): Promise<{ id: string }> {
  const [row] = await db
    .insert(posts)
    .values({
      type: "new user",
      authorId: input.authorId,
      campusId: input.campusId,
      text: null,
      textPlain: "",
      createdAt: input.at,
      lastModified: input.at,
    })
    .returning({ id: posts.id });
  if (!row) throw new Error("insertNewUserPost: no row returned");
  return row;
}
