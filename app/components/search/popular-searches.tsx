import { Link } from "react-router";
import { searchHref } from "~/server/search/filters.shared";

/** spec 2 §2: 'Without q: list of popular searches, each linking to a search with its text as q.' */
export function PopularSearches({ popular }: { popular: string[] }) {
  return (
    <section aria-labelledby="popular-title" className="rounded-2xl border border-zinc-200 bg-white p-4">
      <p className="px-1 pb-3 text-[15px] text-zinc-600">Start typing to search…</p>
      {popular.length > 0 ? (
        <>
          <h2
            id="popular-title"
            className="px-1 pb-2 text-sm font-semibold tracking-wide text-zinc-500 uppercase"
          >
            Popular searches
          </h2>
          <ul className="flex flex-wrap gap-2">
            {popular.map((text) => (
              <li key={text}>
                <Link
                  to={searchHref(text)}
                  className="inline-flex rounded-full bg-zinc-100 px-3 py-1.5 text-sm text-zinc-800 hover:bg-zinc-200"
                >
                  {text}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <h2 id="popular-title" className="sr-only">
          Popular searches
        </h2>
      )}
    </section>
  );
}
