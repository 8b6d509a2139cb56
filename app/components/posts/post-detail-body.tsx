import type { PostDetail } from "~/server/posts/views";
import { PostActions } from "./post-actions";
import { PostTimestamp } from "./post-age";
import { CategoryLabel } from "./post-card";
import { PostMedia } from "./post-media";
import { PostText } from "./post-text";

/**
 * spec 2 §2 'Post detail': what a post shows on its own page and on /media/{id} under
 * its byline: the category, the whole text, every photo and video, the full timestamp
 * and the actions.
 */
export function PostDetailBody({
  post,
  authorName,
  onComment,
}: {
  post: PostDetail;
  authorName: string;
  /** The post page focuses its comment box (PostActions). */
  onComment?(): void;
}) {
  return (
    <>
      {post.category ? (
        <div className="mt-3">
          <CategoryLabel value={post.category} />
        </div>
      ) : null}
      {post.text ? (
        <PostText text={post.text} whole className="mt-3 [&_p]:text-[17px] [&_p]:leading-relaxed" />
      ) : null}
      {post.media.length > 0 ? (
        <div className="mt-3">
          <PostMedia media={post.media} authorName={authorName} eager />
        </div>
      ) : null}
      <p className="mt-3 text-sm text-zinc-500">
        <PostTimestamp date={post.createdAt} />
      </p>
      <div className="mt-2 border-t border-zinc-100 pt-1">
        <PostActions post={post} onComment={onComment} />
      </div>
    </>
  );
}
