import { Link, useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { formatPrice } from "~/server/posts/listing.shared";
import type { ListingTradePanel } from "~/server/trade/listing-panel";
import { TRADE_MESSAGES } from "~/server/trade/offer-rules.shared";
import { MakeOfferButton, type TradeActionData } from "./offer-dialog";

/**
 * Decision 0601 'Offers (n)', best first, with a link to each conversation, and decision 0604
 * 'Mark sold to…' (the people who messaged or offered, or 'Someone else'): the seller's side
 * of the listing's page. Anyone else sees 'Make offer' where it applies.
 */
export function ListingTrade({
  postId,
  panel,
  offerPriceCents,
}: {
  postId: string;
  panel: ListingTradePanel | null;
  /** The price when the viewer may make an offer, else null. */
  offerPriceCents: number | null;
}) {
  if (!panel) {
    return offerPriceCents !== null ? (
      <div className="mt-3">
        <MakeOfferButton postId={postId} priceCents={offerPriceCents} />
      </div>
    ) : null;
  }
  return <SellerPanel postId={postId} panel={panel} />;
}

function SellerPanel({ postId, panel }: { postId: string; panel: ListingTradePanel }) {
  const fetcher = useFetcher<TradeActionData>();
  useActionToast(fetcher.data?.toast);
  return (
    <section aria-labelledby="offers-title" className="rounded-2xl border border-zinc-200 bg-white px-4 py-3">
      <h2 id="offers-title" className="text-base font-bold text-zinc-900">
        {TRADE_MESSAGES.offersHeading(panel.offers.length)}
      </h2>
      {panel.offers.length > 0 ? (
        <ol className="mt-2 divide-y divide-zinc-100">
          {panel.offers.map((offer) => (
            <li key={offer.id} className="flex items-center justify-between gap-2 py-2">
              <span className="min-w-0 text-sm">
                <span className="font-semibold">{offer.buyerName}</span>
                <span className="text-zinc-600">
                  {offer.fromBuyer ? " offered" : " · your counter"} · {TRADE_MESSAGES.timeLeft(offer.msLeft)}
                </span>
              </span>
              <Link
                to={`/messages/${offer.chatId}`}
                className="shrink-0 rounded-full px-3 py-1 text-sm font-bold tabular-nums text-brand-700 hover:bg-brand-50"
              >
                {formatPrice(offer.amountCents)}
              </Link>
            </li>
          ))}
        </ol>
      ) : null}
      <fetcher.Form method="post" action="/trade" className="mt-3 flex flex-wrap items-end gap-2">
        <input type="hidden" name="postId" value={postId} />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor="mark-sold-to" className="text-sm font-medium text-zinc-800">
            {TRADE_MESSAGES.markSoldTo}
          </label>
          <select
            id="mark-sold-to"
            name="buyerId"
            className="rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base"
          >
            {panel.buyers.map((buyer) => (
              <option key={buyer.id} value={buyer.id}>
                {buyer.name} (@{buyer.username})
              </option>
            ))}
            <option value="someone-else">{TRADE_MESSAGES.someoneElse}</option>
          </select>
        </div>
        <Button
          type="submit"
          name="intent"
          value="mark-sold-to"
          variant="secondary"
          disabled={fetcher.state !== "idle"}
        >
          {TRADE_MESSAGES.markSold}
        </Button>
      </fetcher.Form>
    </section>
  );
}
