import type { KeyboardEvent } from "react";
import { Link, useLocation } from "react-router";
import { CheckIcon } from "~/app/components/ui/icons";
import type { FeedListingFilters } from "~/server/posts/listing.shared";

/**
 * The feed's 'Free' filter and 'Show sold' toggle (decision 0170), beside the
 * category filter: links that switch `?free=1` / `?sold=1` in the address (so they work before
 * JavaScript, page, and are shared with the link), announced as switches.
 */
export function filterHref(pathname: string, search: string, name: "free" | "sold", on: boolean): string {
  const params = new URLSearchParams(search);
  params.delete("cursor");
  params.delete("filter");
  if (on) params.set(name, "1");
  else params.delete(name);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

function FilterSwitch({ name, on, label }: { name: "free" | "sold"; on: boolean; label: string }) {
  const location = useLocation();
  // A switch answers Space as well as Enter (a link only Enter).
  function onKeyDown(event: KeyboardEvent<HTMLAnchorElement>) {
    if (event.key !== " ") return;
    event.preventDefault();
    event.currentTarget.click();
  }
  return (
    <Link
      to={filterHref(location.pathname, location.search, name, !on)}
      role="switch"
      aria-checked={on}
      preventScrollReset
      onKeyDown={onKeyDown}
      className={`inline-flex h-11 shrink-0 items-center gap-1.5 rounded-full border px-4 text-sm font-semibold select-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${on ? "border-brand-600 bg-brand-50 text-brand-800" : "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50"}`}
    >
      {on ? <CheckIcon className="size-4" /> : null}
      {label}
    </Link>
  );
}

export function ListingFilters({ filters }: { filters: FeedListingFilters }) {
  return (
    <div className="flex items-center gap-2">
      <FilterSwitch name="free" on={filters.free} label="Free" />
      <FilterSwitch name="sold" on={filters.showSold} label="Show sold" />
    </div>
  );
}
