import { type ReactNode, useRef, useState } from "react";
import { Link } from "react-router";
import { LoadMoreTile, MediaGrid } from "~/app/components/media/media-grid";
import { END_TRIGGER, ListEnd, usePagedList } from "~/app/components/media/paged-list";
import { END_OF_LIST, FeedList } from "~/app/components/posts/feed-list";
import { PostCard } from "~/app/components/posts/post-card";
import { Avatar } from "~/app/components/ui/avatar";
import { buttonClass } from "~/app/components/ui/button";
import { fetchListPage } from "~/app/lib/list-pages";
import type { Page } from "~/server/lists/pages";
import type { MediaTileData } from "~/server/posts/media-tiles";
import type { PostSummary } from "~/server/posts/views";
import { type SearchFilters, type SearchTab, searchFilterParams } from "~/server/search/filters.shared";
import type { PersonHit } from "~/server/search/people";

/** The first page of a search's tab, as the /search loader reads it; `none` without `q`. */
export type SearchResults =
  | { kind: "none" }
  | { kind: "latest"; page: Page<PostSummary> }
  | { kind: "media"; page: Page<MediaTileData> }
  | { kind: "people"; page: Page<PersonHit> };

function NoResults({ q }: { q: string }) {
  return (
    <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
      <h2 className="text-lg font-bold break-words text-zinc-900">No results for "{q}"</h2>
      <p className="mt-1 text-[15px] text-zinc-600">Try searching for something else</p>
    </section>
  );
}

export function ResultsView({
  q,
  results,
  filters,
  listKey,
  newIds = [],
}: {
  q: string;
  results: SearchResults;
  filters: SearchFilters;
  listKey: string;
  /** Decision 0621: results delivered to the viewer's saved search since they last opened it. */
  newIds?: readonly string[];
}) {
  const extra = new URLSearchParams(searchFilterParams(filters)).toString();
  const dataHref = (kind: SearchTab) => (cursor: string) =>
    `/search/data?kind=${kind}&q=${encodeURIComponent(q)}&cursor=${encodeURIComponent(cursor)}${extra ? `&${extra}` : ""}`;
  if (results.kind === "latest") {
    return (
      <FeedList
        page={results.page}
        nextPageHref={dataHref("latest")}
        label={`Posts matching ${q}`}
        empty={<NoResults q={q} />}
        renderPost={(post) =>
          newIds.includes(post.id) ? (
            <div className="flex flex-col gap-1">
              <span className="self-start rounded-full bg-brand-600 px-2 py-0.5 text-xs font-bold text-white">
                New match
              </span>
              <PostCard post={post} />
            </div>
          ) : (
            <PostCard post={post} />
          )
        }
      />
    );
  }
  if (results.kind === "media")
    return <MediaResults q={q} page={results.page} listKey={listKey} nextPageHref={dataHref("media")} />;
  if (results.kind === "people")
    return <PeopleResults q={q} page={results.page} nextPageHref={dataHref("people")} />;
  return null;
}

/** spec 2 §2 'Media tab: 3-column grid'. */
function MediaResults({
  q,
  page,
  listKey,
  nextPageHref,
}: {
  q: string;
  page: Page<MediaTileData>;
  listKey: string;
  nextPageHref(cursor: string): string;
}) {
  const list = usePagedList({ first: page, listKey, nextPageHref });
  if (list.items.length === 0) return <NoResults q={q} />;
  return (
    <section aria-label={`Photos and videos matching ${q}`} className="overflow-hidden rounded-2xl bg-white">
      <MediaGrid
        tiles={list.items}
        label={`Photos and videos matching ${q}`}
        onDeleted={list.remove}
        footer={
          list.nextCursor ? (
            <LoadMoreTile
              href={nextPageHref(list.nextCursor)}
              loading={list.loading}
              onLoad={list.loadMore}
            />
          ) : null
        }
      />
      <ListEnd list={list} nextHref={null} rootMargin={END_TRIGGER.media} showEnd />
    </section>
  );
}

/** spec 2 §2 People tab: the campus's people matching the text, 10 at a time. */
function PeopleResults({
  q,
  page,
  nextPageHref,
}: {
  q: string;
  page: Page<PersonHit>;
  nextPageHref(cursor: string): string;
}) {
  const [state, setState] = useState({ base: page, items: page.items, cursor: page.nextCursor });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = state.base === page ? state : { base: page, items: page.items, cursor: page.nextCursor };
  if (current !== state) setState(current);
  const shown = useRef(current.base);
  shown.current = current.base;
  const end = useRef<HTMLDivElement>(null);
  const loadMore = () => {
    if (!current.cursor || loading) return;
    setLoading(true);
    const asked = current.base;
    fetchListPage<PersonHit>(nextPageHref(current.cursor), (person) => person as PersonHit).then((answer) => {
      setLoading(false);
      // An answer for results the reader has since replaced (a new search) is dropped.
      if (shown.current !== asked) return;
      if (!answer.page) return setError(answer.listError);
      const next = answer.page;
      setError(null);
      setState((s) => ({ base: s.base, items: [...s.items, ...next.items], cursor: next.nextCursor }));
    });
  };
  if (current.items.length === 0) return <NoResults q={q} />;
  return (
    <section aria-label={`People matching ${q}`} className="rounded-2xl border border-zinc-200 bg-white">
      <ul className="divide-y divide-zinc-100">
        {current.items.map((person) => (
          <li key={person.id}>
            <PersonRow person={person} />
          </li>
        ))}
      </ul>
      <div ref={end} className="px-4 py-4 text-center text-sm text-zinc-500">
        {current.cursor ? (
          <button type="button" onClick={loadMore} className={buttonClass("secondary")} disabled={loading}>
            {loading ? "Loading…" : "Load more"}
          </button>
        ) : (
          <p>{END_OF_LIST}</p>
        )}
        {error ? <p role="alert">{error}</p> : null}
      </div>
    </section>
  );
}

function PersonRow({ person }: { person: PersonHit }): ReactNode {
  return (
    <Link to={`/${person.username}`} className="flex items-center gap-3 px-4 py-3 hover:bg-zinc-50">
      <Avatar person={person} size="md" />
      <span className="min-w-0">
        <span className="block truncate font-semibold text-zinc-900">
          {person.firstName} {person.lastName}
        </span>
        <span className="block truncate text-sm text-zinc-500">@{person.username}</span>
      </span>
    </Link>
  );
}
