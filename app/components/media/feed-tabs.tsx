import { Link } from "react-router";
import type { FeedListingFilters } from "~/server/posts/listing.shared";

/** The address of a tab, keeping the listing filters (decision 0170) both lists read. */
function tabHref(path: "/home" | "/media", filters: FeedListingFilters): string {
  const query = new URLSearchParams();
  if (filters.free) query.set("free", "1");
  if (filters.showSold) query.set("sold", "1");
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

const tabClass =
  "relative flex h-12 flex-1 items-center justify-center text-[15px] font-semibold focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600";

/**
 * spec 2 §2 'Media': 'tabs Feed and Media', on /media and, since decision 0441, on
 * /home too at every width: the grid, where a phone shows many listings at once, was linked from
 * nowhere. A tab keeps the 'Free' and 'Show sold' filters.
 */
export function FeedTabs({ current, filters }: { current: "feed" | "media"; filters: FeedListingFilters }) {
  const tabs = [
    { key: "feed", text: "Feed", href: tabHref("/home", filters) },
    { key: "media", text: "Media", href: tabHref("/media", filters) },
  ] as const;
  return (
    <nav aria-label="Feed or media" className="overflow-hidden rounded-2xl border border-zinc-200 bg-white">
      <ul className="flex">
        {tabs.map((tab) =>
          tab.key === current ? (
            <li key={tab.key} className="flex flex-1">
              <Link to={tab.href} aria-current="page" className={`${tabClass} text-zinc-950`}>
                {tab.text}
                <span
                  aria-hidden="true"
                  className="absolute inset-x-6 bottom-0 h-1 rounded-full bg-brand-600"
                />
              </Link>
            </li>
          ) : (
            <li key={tab.key} className="flex flex-1">
              <Link
                to={tab.href}
                className={`${tabClass} text-zinc-500 hover:bg-zinc-50 hover:text-zinc-800`}
              >
                {tab.text}
              </Link>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
