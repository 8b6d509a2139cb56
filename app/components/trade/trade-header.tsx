import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Button } from "~/app/components/ui/button";
import { Modal } from "~/app/components/ui/modal";
import { formatPrice, STATUS_LABELS } from "~/server/posts/listing.shared";
import { CANCEL_REASON_MAX, TRADE_MESSAGES } from "~/server/trade/offer-rules.shared";
import type { TradeHeaderView } from "~/server/trade/trade-views";
import type { TradeActionData } from "./offer-dialog";

/**
 * Decision 0602: the top of a conversation about a listing: its photo, title, price and state,
 * and the deal's actions for each side (the seller's 'Mark sold', the buyer's 'I got it', either
 * side's 'Cancel deal' with a reason), and once it is completed the way to review the other.
 */
export function TradeHeader({ header }: { header: TradeHeaderView }) {
  const { listing, deal } = header;
  const fetcher = useFetcher<TradeActionData>();
  const [cancelling, setCancelling] = useState(false);
  useActionToast(fetcher.data?.toast);
  const busy = fetcher.state !== "idle";
  const active = deal?.state === "active";
  return (
    <div
      data-testid="trade-header"
      className="flex flex-wrap items-center gap-3 border-b border-zinc-200 bg-zinc-50 px-3 py-2"
    >
      {listing ? (
        <Link
          to={`/post/${listing.id}`}
          // At least 14rem for the title: on a phone the deal's buttons wrap under it instead.
          className="flex min-w-56 flex-1 items-center gap-2 rounded-lg hover:bg-white"
        >
          {listing.thumbUrl ? (
            <img src={listing.thumbUrl} alt="" className="size-11 shrink-0 rounded-lg object-cover" />
          ) : null}
          <span className="min-w-0">
            <span className="line-clamp-1 text-sm font-semibold text-zinc-900">
              {listing.title || "Listing"}
            </span>
            <span className="text-xs text-zinc-700">
              {listing.priceCents !== null ? `${formatPrice(listing.priceCents)} · ` : ""}
              <span data-testid="listing-state">{STATUS_LABELS[listing.status]}</span>
              {/* Reserved or sold, for what the two agreed (the offer's amount, not the asking price). */}
              {deal && deal.state !== "cancelled" && deal.amountCents !== null
                ? ` for ${formatPrice(deal.amountCents)}`
                : ""}
            </span>
          </span>
        </Link>
      ) : (
        <p className="flex-1 text-sm text-zinc-600 italic">{TRADE_MESSAGES.listingGone}</p>
      )}
      {active ? (
        <div className="flex gap-2">
          <fetcher.Form method="post" action="/trade">
            <input type="hidden" name="dealId" value={deal.id} />
            <Button type="submit" name="intent" value="complete-deal" disabled={busy} className="px-3 py-1.5">
              {header.viewerIsSeller ? TRADE_MESSAGES.markSold : TRADE_MESSAGES.gotIt}
            </Button>
          </fetcher.Form>
          <Button
            type="button"
            variant="secondary"
            className="px-3 py-1.5"
            onClick={() => setCancelling(true)}
          >
            {TRADE_MESSAGES.cancelDeal}
          </Button>
          <Modal
            open={cancelling}
            onOpenChange={setCancelling}
            title={TRADE_MESSAGES.cancelDeal}
            description="The listing goes back to Available, and the other side is told why."
          >
            <fetcher.Form method="post" action="/trade" className="flex flex-col gap-3">
              <input type="hidden" name="dealId" value={deal.id} />
              <label htmlFor="cancel-reason" className="text-sm font-medium text-zinc-800">
                Reason
              </label>
              <textarea
                id="cancel-reason"
                name="reason"
                required
                maxLength={CANCEL_REASON_MAX}
                rows={3}
                className="rounded-lg border border-zinc-300 px-3 py-2 text-base outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20"
              />
              <div className="flex justify-end gap-2">
                <Button type="button" variant="secondary" onClick={() => setCancelling(false)}>
                  Keep deal
                </Button>
                <Button type="submit" name="intent" value="cancel-deal" variant="danger" disabled={busy}>
                  {TRADE_MESSAGES.cancelDeal}
                </Button>
              </div>
            </fetcher.Form>
          </Modal>
        </div>
      ) : null}
      {/* Decision 0618: a completed deal's two people review each other from its own page. */}
      {deal?.state === "completed" ? (
        <Link
          to={`/deals/${deal.id}/review`}
          className="rounded-full border border-zinc-300 bg-white px-3 py-1.5 text-sm font-semibold text-zinc-900 hover:bg-zinc-50"
        >
          Review
        </Link>
      ) : null}
    </div>
  );
}
