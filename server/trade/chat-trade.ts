import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { type OfferCardView, offerCards, type TradeHeaderView, tradeHeader } from "./trade-views";

/**
 * Decision 0602: what a conversation's page shows of the trade, in one call from its loader: the
 * header (the listing and the deal) and the cards of the offers among the messages shown.
 */
export async function chatTrade(
  ctx: AppContext,
  viewer: Viewer,
  chatId: string,
  messages: readonly { offerId: string | null }[],
): Promise<{ header: TradeHeaderView | null; cards: Record<string, OfferCardView> }> {
  const [header, cards] = await Promise.all([
    tradeHeader(ctx, viewer, chatId),
    offerCards(
      ctx,
      viewer,
      messages.flatMap((message) => (message.offerId ? [message.offerId] : [])),
    ),
  ]);
  return { header, cards };
}
