import type { PostSummary } from "~/server/posts/views";
import { ListingOwnerActions } from "./listing-actions";
import { MessageSellerButton } from "./message-seller-button";

/**
 * The reader's own part of a listing's feed card, between its shared body and its action row
 * (decision 0380): the owner's status buttons (decision 0170), anyone else's 'Send Message' (decision 0440,
 * decision 0440). One chunk for both, loaded after the page as the action row is (decision 0370).
 */
export function CardListingActions({ post }: { post: PostSummary }) {
  if (post.ownedByViewer) return <ListingOwnerActions postId={post.id} listing={post.listing} />;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1">
      <MessageSellerButton
        postId={post.id}
        authorUsername={post.author.username}
        authorFirstName={post.author.firstName}
      />
      {/* Decision 0616: the seller's rating, words from the server. */}
      {post.sellerRating ? <span className="text-sm text-zinc-600">{post.sellerRating}</span> : null}
    </div>
  );
}
