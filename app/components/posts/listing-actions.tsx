import { useFetcher, useLocation } from "react-router";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { useHydrated } from "~/app/lib/hydrated";
import type { ToastInput } from "~/app/lib/toast";
import {
  isBoostable,
  type ListingStatus,
  type ListingView,
  STATUS_ACTIONS,
} from "~/server/posts/listing.shared";

/**
 * The listing's status buttons (decision 0170): the owner's on their cards and post
 * page, and 'Notify me' on someone else's reserved listing (./listing-labels.tsx shows the details).
 */

/** What the post route's action answers the listing intents (app/routes/posts/post.tsx). */
export interface ListingActionData {
  intent: string;
  ok: boolean;
  status?: ListingStatus;
  watching?: boolean;
  toast?: ToastInput | null;
}

/** The statuses an owner may move to from `status` (decision 0170: sold → reserved is refused). */
export function nextStatuses(status: ListingStatus): ListingStatus[] {
  if (status === "available") return ["reserved", "sold"];
  if (status === "reserved") return ["sold", "available"];
  return ["available"];
}

/**
 * Decision 0442: whether the owner is offered boosting a post ('Boost for $5',
 * 'Boost Again', the menu's 'Boost Post'): not on a sold listing, which the server refuses ('Sold
 * listings can't be boosted.', server/posts/listing.shared.ts isBoostable), nor on a reserved one, whose
 * buyers are already found. An ad already running keeps its 'View Analytics' (PostAdBar), so the
 * owner can still pause or stop it.
 */
export function offersBoost(status: ListingStatus): boolean {
  return isBoostable({ status });
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
