import { CONDITION_LABELS, isListing, type ListingView, priceLine } from "~/server/posts/listing.shared";

/**
 * How a post shows its listing details (decision 0170; beyond the spec): the
 * price ('$40 · Open to offers', 'Free'), the condition and the Wanted / Reserved / Sold labels,
 * on cards, the post page, media tiles and profile lists. The owner's status buttons are in
 * ./listing-actions.tsx, which a feed loads only when it has a card of the viewer's listing.
 */

const labelClass =
  "inline-flex items-center rounded-full px-2.5 py-1 text-xs font-bold tracking-wide uppercase";

/** The Wanted / Reserved / Sold labels; nothing for an available Selling post. */
export function ListingStatusLabels({ listing }: { listing: Pick<ListingView, "kind" | "status"> }) {
  return (
    <>
      {listing.kind === "wanted" ? (
        <span className={`${labelClass} bg-violet-100 text-violet-800`}>Wanted</span>
      ) : null}
      {listing.status === "reserved" ? (
        <span className={`${labelClass} bg-amber-100 text-amber-900`}>Reserved</span>
      ) : null}
      {listing.status === "sold" ? (
        <span className={`${labelClass} bg-zinc-800 text-white`}>Sold</span>
      ) : null}
    </>
  );
}

/** The listing line of a card or post page; nothing for a post without listing details. */
export function ListingSummary({ listing, className = "" }: { listing: ListingView; className?: string }) {
  const price = priceLine(listing);
  const labelled = listing.kind === "wanted" || listing.status !== "available";
  if (!price && !listing.condition && !labelled) return null;
  return (
    <div className={`flex flex-wrap items-center gap-x-3 gap-y-1.5 ${className}`}>
      {price ? (
        <p
          className={`text-2xl font-extrabold tabular-nums ${listing.status === "sold" ? "text-zinc-500 line-through decoration-2" : "text-zinc-950"}`}
        >
          <span className="sr-only">{listing.kind === "wanted" ? "Budget: " : "Price: "}</span>
          {price}
        </p>
      ) : null}
      {listing.condition ? (
        <span className="inline-flex items-center rounded-full border border-zinc-200 px-2.5 py-0.5 text-xs font-medium text-zinc-700">
          <span className="sr-only">Condition: </span>
          {CONDITION_LABELS[listing.condition]}
        </span>
      ) : null}
      <ListingStatusLabels listing={listing} />
    </div>
  );
}

/** Whether a post uses listing details (a plain post offers its status buttons only in its menu). */
export function isListingPost(post: { listing: ListingView }): boolean {
  return isListing(post.listing);
}

/**
 * Decision 0440: whether a post shows the visible 'Send Message' button: someone
 * else's top-level listing. A plain post, a comment and one's own post keep only the more menu's
 * entry (spec 2 §2); a sponsored card has its ad's own button instead.
 */
export function offersMessageButton(post: {
  listing: ListingView;
  ownedByViewer: boolean;
  parentId: string | null;
  type: string;
  sponsored?: unknown;
}): boolean {
  return (
    !post.ownedByViewer &&
    post.type === "post" &&
    post.parentId === null &&
    !post.sponsored &&
    isListing(post.listing)
  );
}
