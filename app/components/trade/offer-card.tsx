import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { formatPrice, STATUS_LABELS } from "~/server/posts/listing.shared";
import { OFFER_STATE_LABELS, TRADE_MESSAGES } from "~/server/trade/offer-rules.shared";
import type { OfferCardView } from "~/server/trade/trade-views";
import { OfferAmountDialog, type TradeActionData } from "./offer-dialog";

const STATE_STYLES: Record<OfferCardView["state"], string> = {
  pending: "bg-amber-100 text-amber-900",
  countered: "bg-zinc-100 text-zinc-700",
  accepted: "bg-emerald-100 text-emerald-900",
  declined: "bg-zinc-100 text-zinc-700",
  withdrawn: "bg-zinc-100 text-zinc-700",
  expired: "bg-zinc-100 text-zinc-700",
  closed: "bg-zinc-100 text-zinc-700",
};

/**
 * Decision 0602: an offer's card in the thread, drawn from the offer as it is now: the listing's
 * photo, title and price, the amount, who offered, the state and the time left while pending;
 * the recipient's Accept, Counter and Decline, the sender's Withdraw.
 */
export function OfferCard({ card }: { card: OfferCardView }) {
  const fetcher = useFetcher<TradeActionData>();
  const [countering, setCountering] = useState(false);
  useActionToast(fetcher.data?.toast);
  const busy = fetcher.state !== "idle";
  const { listing } = card;
  const button =
    "rounded-full px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60";
  return (
    <section
      aria-label={`Offer of ${formatPrice(card.amountCents)}`}
      data-testid="offer-card"
      data-state={card.state}
      className="w-72 max-w-full rounded-2xl border border-zinc-200 bg-white p-3 text-left text-zinc-900 shadow-sm"
    >
      {listing ? (
        <Link to={`/post/${listing.id}`} className="flex items-center gap-2 rounded-lg hover:bg-zinc-50">
          {listing.thumbUrl ? (
            <img src={listing.thumbUrl} alt="" className="size-12 shrink-0 rounded-lg object-cover" />
          ) : null}
          <span className="min-w-0">
            <span className="line-clamp-1 text-sm font-semibold">{listing.title || "Listing"}</span>
            <span className="text-xs text-zinc-600">
              {listing.priceCents !== null ? formatPrice(listing.priceCents) : ""}
              {listing.status !== "available" ? ` · ${STATUS_LABELS[listing.status]}` : ""}
            </span>
          </span>
        </Link>
      ) : (
        <p className="text-sm text-zinc-600 italic">{TRADE_MESSAGES.listingGone}</p>
      )}
      <div className="mt-2 flex items-baseline justify-between gap-2">
        <p className="text-2xl font-extrabold tabular-nums">{formatPrice(card.amountCents)}</p>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLES[card.state]}`}>
          {OFFER_STATE_LABELS[card.state]}
        </span>
      </div>
      <p className="text-sm text-zinc-600">
        {card.fromViewer ? "You offered" : `${card.fromName} offered`}
        {card.msLeft !== null ? ` · ${TRADE_MESSAGES.timeLeft(card.msLeft)}` : ""}
      </p>
      {card.note ? <p className="mt-1 text-sm break-words whitespace-pre-wrap">“{card.note}”</p> : null}
      {card.actions.accept || card.actions.withdraw ? (
        <fetcher.Form method="post" action="/trade" className="mt-3 flex flex-wrap gap-2">
          <input type="hidden" name="offerId" value={card.id} />
          <input type="hidden" name="version" value={card.version} />
          <input type="hidden" name="amountCents" value={card.amountCents} />
          {card.actions.accept ? (
            <button
              type="submit"
              name="intent"
              value="accept-offer"
              disabled={busy}
              className={`${button} bg-brand-600 text-white hover:bg-brand-700`}
            >
              {TRADE_MESSAGES.accept}
            </button>
          ) : null}
          {card.actions.counter ? (
            <button
              type="button"
              onClick={() => setCountering(true)}
              disabled={busy}
              className={`${button} border border-zinc-300 hover:bg-zinc-50`}
            >
              {TRADE_MESSAGES.counter}
            </button>
          ) : null}
          {card.actions.decline ? (
            <button
              type="submit"
              name="intent"
              value="decline-offer"
              disabled={busy}
              className={`${button} text-red-700 hover:bg-red-50`}
            >
              {TRADE_MESSAGES.decline}
            </button>
          ) : null}
          {card.actions.withdraw ? (
            <button
              type="submit"
              name="intent"
              value="withdraw-offer"
              disabled={busy}
              className={`${button} border border-zinc-300 hover:bg-zinc-50`}
            >
              {TRADE_MESSAGES.withdraw}
            </button>
          ) : null}
        </fetcher.Form>
      ) : null}
      {card.actions.counter ? (
        <OfferAmountDialog
          open={countering}
          onOpenChange={setCountering}
          title={TRADE_MESSAGES.counter}
          intent="counter-offer"
          fields={{ offerId: card.id, version: String(card.version) }}
          priceCents={listing?.priceCents ?? null}
          defaultCents={card.amountCents}
          submitLabel="Send counteroffer"
        />
      ) : null}
    </section>
  );
}

/** Decision 0602: a system line of the trade, centred in the thread. */
export function SystemLine({ text }: { text: string }) {
  return (
    <p
      role="note"
      className="mx-auto max-w-sm rounded-full bg-zinc-100 px-3 py-1 text-center text-xs text-zinc-700"
    >
      {text}
    </p>
  );
}
