import { eq } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { isUuid } from "../db/ids";
import { posts } from "../db/schema";
import { PostError } from "./errors";
import type { ListingStatus } from "./listing.shared";
import { POST_MESSAGES } from "./schemas";

/** The fields the rules of a change to one post read (saves, listing status, renewal, watches). */
export interface LockedPost {
  id: string;
  campusId: string;
  authorId: string;
  type: "post" | "new user";
  parentId: string | null;
  priceCents: number | null;
  condition: string | null;
  listingKind: "selling" | "wanted";
  listingStatus: ListingStatus;
  lastModified: Date;
}

/**
 * The post behind `postId`, its row locked until `tx` ends, so concurrent changes of one post
 * take turns and each reads what the one before it wrote; 'not-found' for a bad id or a
 * missing post.
 */
export async function lockPost(tx: Queryable, postId: string): Promise<LockedPost> {
  if (!isUuid(postId)) throw new PostError("not-found", POST_MESSAGES.postGone);
  const [post] = await tx
    .select({
      id: posts.id,
      campusId: posts.campusId,
      authorId: posts.authorId,
      type: posts.type,
      parentId: posts.parentId,
      priceCents: posts.priceCents,
      condition: posts.condition,
      listingKind: posts.listingKind,
      listingStatus: posts.listingStatus,
      lastModified: posts.lastModified,
    })
    .from(posts)
    .where(eq(posts.id, postId))
    .for("update")
    .limit(1);
  if (!post) throw new PostError("not-found", POST_MESSAGES.postGone);
  return post;
}
