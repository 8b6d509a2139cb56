import type { AdStatus } from "../db/schema/ads";
import type { PostSummary } from "../posts/views";

// What the browser knows of sponsored posts (no server code: the feed's components import it).

/** What a sponsored post carries besides the post (spec 2 §3 isSponsored, cta, ad_id). */
export interface Sponsorship {
  adId: string;
  /** Counts the sponsored places of the whole scroll from 0: a stable key while ads cycle. */
  slot: number;
  cta: { type: "website" | "message" | "profile"; label: string; url: string | null };
  /** What the card counts a view or a click with (decision 0467). */
  analyticsToken: string;
}

/** An item of the home feed: a post, or a sponsored post (the same card, labelled). */
export type FeedItem = PostSummary & { sponsored?: Sponsorship };

/** A feed item's key in lists (React keys, de-duplication of appended pages). */
export function feedItemKey(item: { id: string; sponsored?: Omit<Sponsorship, "analyticsToken"> }): string {
  return item.sponsored ? `sponsored-${item.sponsored.slot}` : item.id;
}

/** spec 2 §4 'Boost for $5' / 'Boost Again' / 'View Analytics'. */
export function ownerBoostButton(latest: { status: AdStatus } | null): "boost" | "boost-again" | "analytics" {
  if (!latest || latest.status === "checkout") return "boost";
  if (latest.status === "stopped" || latest.status === "completed") return "boost-again";
  return "analytics";
}
