import { Link } from "react-router";
import { ListingStatusLabels } from "~/app/components/posts/listing-labels";
import { CHAT_MESSAGES } from "~/server/chats/schemas.shared";
import type { SharedPostCard } from "~/server/chats/shared-posts";

/**
 * A shared post in a chat (spec 2 §3 Message postId): its card, or '* Post deleted **' once it
 * is gone (spec 2 §4). Decision 0456: the card shows the price and the listing's labels (Wanted,
 * Reserved, Sold) as they are when the thread loads, the feed's labels (decision 0170).
 */
export function SharedPost({ card }: { card: SharedPostCard }) {
  if (card.deleted) {
    return (
      <p className="rounded-xl border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-500 italic">
        {CHAT_MESSAGES.postDeleted}
      </p>
    );
  }
  const labelled = card.kind === "wanted" || card.status !== "available";
  return (
    <Link
      to={`/post/${card.id}`}
      className="flex max-w-xs items-center gap-2 rounded-xl border border-zinc-200 bg-white p-2 text-left text-zinc-900 hover:bg-zinc-50"
    >
      {card.thumbUrl ? (
        <img src={card.thumbUrl} alt="" className="size-12 shrink-0 rounded-lg object-cover" />
      ) : null}
      <span className="min-w-0">
        <span className="block text-xs font-semibold text-zinc-600">{card.author}</span>
        <span className="line-clamp-2 text-sm">{card.text || "View post"}</span>
        {card.price || labelled ? (
          <span className="mt-1 flex flex-wrap items-center gap-1.5">
            {card.price ? (
              <span
                className={`text-sm font-bold tabular-nums ${card.status === "sold" ? "text-zinc-600 line-through" : "text-zinc-950"}`}
              >
                <span className="sr-only">{card.kind === "wanted" ? "Budget: " : "Price: "}</span>
                {card.price}
              </span>
            ) : null}
            <ListingStatusLabels listing={card} />
          </span>
        ) : null}
      </span>
    </Link>
  );
}
