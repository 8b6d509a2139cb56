import { useRef } from "react";
import { PostCard } from "~/app/components/posts/post-card";
import { useViewTracking } from "~/app/lib/analytics";
import type { FeedItem } from "~/server/ads/sponsored.shared";

/**
 * A sponsored post of the feed (spec 2 §2): the post's card, labelled 'Sponsored' with its
 * call-to-action, counting a view once half of it has been on screen for a second
 * (decision 0273) — never the owner's own.
 */
export function SponsoredCard({ post }: { post: FeedItem }) {
  const ref = useRef<HTMLDivElement>(null);
  useViewTracking(ref, post.id, post.sponsored?.analyticsToken, !post.ownedByViewer);
  return (
    <div ref={ref} data-sponsored-ad={post.sponsored?.adId}>
      <PostCard post={post} />
    </div>
  );
}
