import { useRootData } from "~/app/lib/root-data";
import type { PostDetail } from "~/server/posts/views";
import { ListingOwnerActions, WatchListingButton } from "./listing-actions";
import { isListingPost, ListingSummary, offersMessageButton } from "./listing-labels";
import { MessageSellerButton } from "./message-seller-button";
import { PostActions } from "./post-actions";
import { PostTimestamp } from "./post-age";
import { CategoryLabel } from "./post-card";
import { MediaGallery } from "./post-gallery";
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
  const { viewer } = useRootData();
  const topLevel = post.type === "post" && post.parentId === null;
  return (
    <>
      {/* Decision 0441: price and status first; decision 0440: the buyer's Send Message under them. */}
      <ListingSummary listing={post.listing} className="mt-3" />
      {offersMessageButton(post) ? (
        <MessageSellerButton
          postId={post.id}
          authorUsername={post.author.username}
          authorFirstName={post.author.firstName}
          className="mt-3 w-full xs:w-auto"
        />
      ) : null}
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
          {/* Decision 0441: several photos swipe as a gallery on a phone. */}
          {post.media.length > 1 ? (
            <MediaGallery media={post.media} authorName={authorName} eager />
          ) : (
            <PostMedia media={post.media} authorName={authorName} eager />
          )}
        </div>
      ) : null}
      <p className="mt-3 text-sm text-zinc-500">
        <PostTimestamp date={post.createdAt} />
      </p>
      {/* Decision 0171: the owner's status buttons ('Still available?' once expired); others may watch a reserved one. */}
      {topLevel && post.ownedByViewer && (isListingPost(post) || post.listing.status !== "available") ? (
        <ListingOwnerActions postId={post.id} listing={post.listing} />
      ) : null}
      {topLevel && viewer && !post.ownedByViewer && post.listing.status === "reserved" ? (
        <WatchListingButton postId={post.id} watching={post.watchedByViewer} />
      ) : null}
      <div className="mt-2 border-t border-zinc-100 pt-1">
        <PostActions post={post} onComment={onComment} onItsPage />
      </div>
    </>
  );
}
