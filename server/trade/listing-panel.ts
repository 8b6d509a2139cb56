import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { isUuid } from "../db/ids";
import { listBuyersToMark } from "./deals";
import { type ListingOfferLine, listingOffers } from "./trade-views";

/**
 * Decision 0601 'Offers (n)' and decision 0604 'Mark sold to…': what the seller's own listing
 * page shows of its trade. Null for anyone but the seller (they see 'Make offer' instead).
 */
export interface ListingTradePanel {
  offers: ListingOfferLine[];
  buyers: { id: string; name: string; username: string }[];
}

export async function listingTradePanel(
  ctx: AppContext,
  viewer: Viewer | null,
  post: { id: string; ownedByViewer: boolean; parentId: string | null },
): Promise<ListingTradePanel | null> {
  if (!viewer || !post.ownedByViewer || post.parentId !== null || !isUuid(post.id)) return null;
  const [offers, buyers] = await Promise.all([
    listingOffers(ctx, viewer, post.id),
    listBuyersToMark(ctx, viewer, post.id),
  ]);
  return { offers, buyers };
}
