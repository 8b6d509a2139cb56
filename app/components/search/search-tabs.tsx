import { Link } from "react-router";
import { SEARCH_TABS, type SearchFilters, type SearchTab, searchHref } from "~/server/search/filters.shared";

const TAB_LABELS: Record<SearchTab, string> = { latest: "Latest", media: "Media", people: "People" };

/** spec 2 §2: tabs Latest, Media, People, only when q is present. */
export function SearchTabs({ q, show, filters }: { q: string; show: SearchTab; filters: SearchFilters }) {
  const tabClass =
    "relative flex h-12 flex-1 items-center justify-center text-[15px] font-semibold focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600";
  return (
    <nav aria-label="Search results" className="overflow-hidden rounded-2xl border border-zinc-200 bg-white">
      <ul className="flex">
        {SEARCH_TABS.map((tab) => (
          <li key={tab} className="flex flex-1">
            <Link
              to={searchHref(q, tab, filters)}
              aria-current={tab === show ? "page" : undefined}
              className={`${tabClass} ${tab === show ? "text-zinc-950" : "text-zinc-500 hover:bg-zinc-50 hover:text-zinc-800"}`}
            >
              {TAB_LABELS[tab]}
              {tab === show ? (
                <span
                  aria-hidden="true"
                  className="absolute inset-x-6 bottom-0 h-1 rounded-full bg-brand-600"
                />
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
