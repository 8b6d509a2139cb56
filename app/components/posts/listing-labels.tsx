import { useFetcher, useLocation } from "react-router";
import { useActionToast } from "~/app/components/auth/action-feedback";
import { useHydrated } from "~/app/lib/hydrated";
import type { ToastInput } from "~/app/lib/toast";
import {
  CONDITION_LABELS,
  isListing,
  type ListingStatus,
  type ListingView,
  priceLine,
  STATUS_ACTIONS,
} from "~/server/posts/listing";

/**
 * How a post shows its listing details (issue 11 §2, decision 0170; beyond the spec): the
 * price ('$40 · Open to offers', 'Free'), the condition and the Wanted / Reserved / Sold labels,
 * on cards, the post page, media tiles and profile lists; and the owner's status buttons.
 */

/** What the post route's action answers the listing intents (app/routes/posts/post.tsx). */
export interface ListingActionData {
  intent: string;
  ok: boolean;
  status?: ListingStatus;
  watching?: boolean;
  toast?: ToastInput | null;
}

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
          className={`text-lg font-bold tabular-nums ${listing.status === "sold" ? "text-zinc-500 line-through decoration-2" : "text-zinc-950"}`}
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

/** The statuses an owner may move to from `status` (decision 0170: sold → reserved is refused). */
export function nextStatuses(status: ListingStatus): ListingStatus[] {
  if (status === "available") return ["reserved", "sold"];
  if (status === "reserved") return ["sold", "available"];
  return ["available"];
}

const smallButtonClass =
  "inline-flex min-h-11 items-center justify-center rounded-full border border-zinc-300 bg-white px-3.5 text-sm font-semibold text-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60";

/**
 * The owner's own card and post page: 'Mark as reserved' / 'Mark as sold' / 'Mark as available',
 * and on an expired listing 'Still available?' with 'Renew' and 'Mark as sold' (decision 0171).
 * Posted to the post page's action; without JavaScript the form comes back to this page.
 */
export function ListingOwnerActions({ postId, listing }: { postId: string; listing: ListingView }) {
  const fetcher = useFetcher<ListingActionData>();
  const hydrated = useHydrated();
  const location = useLocation();
  useActionToast(fetcher.data?.toast);
  const pending = fetcher.state !== "idle";
  const returnTo = hydrated ? null : (
    <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
  );

  if (listing.expired) {
    return (
      <section
        aria-label="Still available?"
        className="mt-3 flex flex-col gap-2 rounded-xl border border-amber-200 bg-amber-50 p-3 xs:flex-row xs:items-center xs:justify-between"
      >
        <div className="min-w-0">
          <p className="text-[15px] font-bold text-amber-950">Still available?</p>
          <p className="text-sm text-amber-900">This listing is hidden from the feed until you renew it.</p>
        </div>
        <div className="flex shrink-0 gap-2">
          <fetcher.Form method="post" action={`/post/${postId}`}>
            <input type="hidden" name="intent" value="renew-listing" />
            {returnTo}
            <button type="submit" disabled={pending} className={smallButtonClass}>
              Renew
            </button>
          </fetcher.Form>
          <fetcher.Form method="post" action={`/post/${postId}`}>
            <input type="hidden" name="intent" value="set-listing-status" />
            <input type="hidden" name="status" value="sold" />
            {returnTo}
            <button type="submit" disabled={pending} className={smallButtonClass}>
              {STATUS_ACTIONS.sold}
            </button>
          </fetcher.Form>
        </div>
      </section>
    );
  }

  return (
    <div className="mt-3 flex flex-wrap gap-2">
      {nextStatuses(listing.status).map((status) => (
        <fetcher.Form key={status} method="post" action={`/post/${postId}`}>
          <input type="hidden" name="intent" value="set-listing-status" />
          <input type="hidden" name="status" value={status} />
          {returnTo}
          <button type="submit" disabled={pending} className={smallButtonClass}>
            {STATUS_ACTIONS[status]}
          </button>
        </fetcher.Form>
      ))}
    </div>
  );
}

/**
 * 'Notify me if it's available again' on someone else's reserved listing (signed in; decision
 * 0172); a second press takes it back.
 */
export function WatchListingButton({ postId, watching }: { postId: string; watching: boolean }) {
  const fetcher = useFetcher<ListingActionData>();
  const hydrated = useHydrated();
  const location = useLocation();
  useActionToast(fetcher.data?.toast);
  const shown = fetcher.data?.watching ?? watching;
  return (
    <fetcher.Form method="post" action={`/post/${postId}`} className="mt-3">
      <input type="hidden" name="intent" value={shown ? "unwatch-listing" : "watch-listing"} />
      {hydrated ? null : (
        <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      )}
      <button type="submit" disabled={fetcher.state !== "idle"} className={smallButtonClass}>
        {shown ? "Stop notifying me" : "Notify me if it's available again"}
      </button>
    </fetcher.Form>
  );
}
