import { useLocation } from "react-router";
import { SearchIcon } from "~/app/components/ui/icons";
import { searchPlaceholder } from "./campus";

/**
 * The header search (spec 1 §1): a plain GET form, so it works before
 * JavaScript loads. A campus searches its posts at /search?q=…; the generic
 * instance searches schools at /search_schools?q=… (spec 1 §2 'Find Your School').
 */
export function SearchBox({ campus }: { campus: { name: string; generic: boolean } }) {
  const location = useLocation();
  const action = campus.generic ? "/search_schools" : "/search";
  const placeholder = campus.generic ? "Search schools" : searchPlaceholder(campus);
  // Find Your School has its own search-as-you-type box; a second 'Search schools' box would confuse.
  if (campus.generic && location.pathname === action) return null;
  // Keep the query visible on the results page.
  const current = location.pathname === action ? (new URLSearchParams(location.search).get("q") ?? "") : "";
  return (
    <search className="block w-full">
      <form method="get" action={action} className="relative w-full">
        <label htmlFor="site-search" className="sr-only">
          {placeholder}
        </label>
        <SearchIcon className="pointer-events-none absolute top-1/2 left-3.5 size-[18px] -translate-y-1/2 text-zinc-500" />
        <input
          key={current}
          id="site-search"
          type="search"
          name="q"
          defaultValue={current}
          placeholder={placeholder}
          autoComplete="off"
          enterKeyHint="search"
          className="h-10 w-full rounded-full border border-transparent bg-zinc-100 pr-4 pl-10 text-[15px] text-zinc-900 placeholder:text-zinc-500 hover:bg-zinc-200/70 focus:border-brand-600 focus:bg-white focus:ring-2 focus:ring-brand-600/20 focus:outline-none"
        />
      </form>
    </search>
  );
}
