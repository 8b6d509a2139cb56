import { type ReactNode, useEffect, useRef, useState } from "react";
import {
  data,
  Form,
  Link,
  redirect,
  type ShouldRevalidateFunctionArgs,
  useNavigate,
  useSubmit,
} from "react-router";
import { z } from "zod";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { LoadMoreTile, MediaGrid } from "~/app/components/media/media-grid";
import { END_TRIGGER, ListEnd, usePagedList } from "~/app/components/media/paged-list";
import { END_OF_LIST, FeedList } from "~/app/components/posts/feed-list";
import { isSaveToggle } from "~/app/components/posts/feed-model";
import { PrivateCommunityGate } from "~/app/components/schools/private-community";
import { pageTitle } from "~/app/components/shell/campus";
import { Avatar } from "~/app/components/ui/avatar";
import { buttonClass } from "~/app/components/ui/button";
import { listRefusal } from "~/app/lib/errors.server";
import { readForm, readIntent } from "~/app/lib/form.server";
import { fetchListPage } from "~/app/lib/list-pages";
import { loadHistory } from "~/app/lib/navigation-history";
import { isLiveRevalidation } from "~/app/lib/realtime";
import { useRootData } from "~/app/lib/root-data";
import { toastHeaders } from "~/app/lib/toast.server";
import { getViewer } from "~/app/lib/viewer.server";
import { CATEGORY_OPTIONS } from "~/server/posts/categories";
import type { Page } from "~/server/posts/cursor";
import { type MediaTileData, toMediaTiles } from "~/server/posts/media-tiles";
import type { PostSummary } from "~/server/posts/views";
import {
  LISTING_CONDITIONS,
  SEARCH_SORT_LABELS,
  SEARCH_SORTS,
  SEARCH_TABS,
  type SearchFilters,
  type SearchTab,
  searchFilterParams,
  searchHref,
} from "~/server/search/filters";
import {
  clearSearchHistory,
  listPopularSearches,
  recordSearch,
  removeRecentSearch,
} from "~/server/search/history";
import { SEARCH_MESSAGES } from "~/server/search/limits";
import { LISTING_FILTERS_READY } from "~/server/search/listing";
import { type PersonHit, searchPeople } from "~/server/search/people";
import { searchPosts } from "~/server/search/posts";
import { readSearchFilters } from "~/server/search/read-filters";
import { normaliseSearchText } from "~/server/search/text";
import type { Route } from "./+types/search";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

type Results =
  | { kind: "none" }
  | { kind: "latest"; page: Page<PostSummary> }
  | { kind: "media"; page: Page<MediaTileData> }
  | { kind: "people"; page: Page<PersonHit> };

/**
 * spec 2 §2 '/search': `q` and `show` = latest (default), media or people. Without `q`, the
 * campus's popular searches. The first page of a tab is read here (and, for a signed-in
 * person, the search goes into their history and the campus's counts); the next pages come
 * from /search/data. spec 1 §6: a visitor on a private campus gets the sign-in modal ('search').
 */
export async function loader(args: Route.LoaderArgs) {
  const { context, request } = args;
  const url = new URL(request.url);
  // spec 1 §2: the generic instance searches schools.
  if (context.campus.generic) {
    const q = url.searchParams.get("q");
    throw redirect(q ? `/search_schools?q=${encodeURIComponent(q)}` : "/search_schools");
  }
  const viewer = await getViewer(args);
  const q = normaliseSearchText(url.searchParams.get("q"));
  const showParam = url.searchParams.get("show");
  const show: SearchTab = SEARCH_TABS.find((tab) => tab === showParam) ?? "latest";
  const filters = readSearchFilters(url.searchParams);
  const cursor = url.searchParams.get("cursor");
  const campusId = context.campus.id;
  const base = { q, show, filters, cursor, privateGate: false, popular: [] as string[] };
  try {
    if (!q) {
      const popular = await listPopularSearches(context.app, { campusId });
      return data({ ...base, results: { kind: "none" } as Results, popular: popular.map((p) => p.text) });
    }
    let results: Results;
    if (show === "people") {
      results = {
        kind: "people",
        page: await searchPeople(context.app, viewer, { campusId, text: q, cursor }),
      };
    } else {
      const page = await searchPosts(context.app, viewer, { campusId, q, show, filters, cursor });
      results =
        show === "media"
          ? { kind: "media", page: { items: toMediaTiles(page.items), nextCursor: page.nextCursor } }
          : { kind: "latest", page: { items: page.items, nextCursor: page.nextCursor } };
      base.filters = page.applied;
    }
    // spec 2 §3 'User search history': a search, not the next page of one.
    if (!cursor) await recordSearch(context.app, viewer, { campusId, text: q });
    return data({ ...base, results });
  } catch (error) {
    const refusal = listRefusal(error);
    if (refusal.privateGate)
      return data({ ...base, privateGate: true, results: { kind: "none" } as Results });
    throw data(refusal.listError, { status: refusal.status });
  }
}

const searchIntents = z.enum(["remove-recent", "clear-recent"]);

/** spec 2 §7: removing one recent search ('Recent Search Removed') or all ('Search History Cleared'). */
export async function action(args: Route.ActionArgs) {
  const { context, request } = args;
  const viewer = await getViewer(args);
  const form = await readForm(request);
  const intent = readIntent(form, searchIntents);
  if (!viewer) return data({ ok: false }, { status: 401 });
  if (intent === "clear-recent") {
    await clearSearchHistory(context.app, viewer, { campusId: context.campus.id });
    return data(
      { ok: true },
      { headers: await toastHeaders({ message: SEARCH_MESSAGES.historyCleared, type: "okay" }) },
    );
  }
  const text = String(form.get("text") ?? "").slice(0, 200);
  await removeRecentSearch(context.app, viewer, { campusId: context.campus.id, text });
  return data(
    { ok: true },
    { headers: await toastHeaders({ message: SEARCH_MESSAGES.recentRemoved, type: "okay" }) },
  );
}

/** A save toggled from a result changes nothing in the list. */
export function shouldRevalidate({
  formData,
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (isSaveToggle(formData) || isLiveRevalidation()) return false;
  // The dropdown's history buttons post here: the results stay.
  if (formAction === "/search" && formData?.get("intent")) return false;
  return defaultShouldRevalidate;
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  const q = loaderData?.q;
  return [{ title: pageTitle(q ? `${q} - Search` : "Search", matches[0]?.loaderData?.campus) }];
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { campus } = useRootData();
  const { q, show, filters, results, popular, privateGate } = loaderData;
  if (privateGate) return <PrivateSearch campus={campus} />;
  return (
    <div className="flex flex-col gap-3">
      <SearchHeader />
      {q ? (
        <>
          <SearchTabs q={q} show={show} filters={filters} />
          {show !== "people" ? <FilterBar q={q} show={show} filters={filters} /> : null}
          <ResultsView
            q={q}
            results={results}
            filters={filters}
            listKey={`${q}|${show}|${loaderData.cursor ?? ""}`}
          />
        </>
      ) : (
        <PopularSearches popular={popular} />
      )}
    </div>
  );
}

function PrivateSearch({ campus }: { campus: Parameters<typeof PrivateCommunityGate>[0]["campus"] }) {
  const signIn = useSignInModal();
  useEffect(() => {
    signIn.open("search");
  }, [signIn]);
  return <PrivateCommunityGate campus={campus} />;
}

/** spec 2 §2: 'Back button goes to /home, or back in history if the previous page was a search.' */
function SearchHeader() {
  const navigate = useNavigate();
  return (
    <div className="flex items-center gap-2 px-1">
      <Link
        to="/home"
        onClick={(event) => {
          const entries = loadHistory().entries;
          const previous = entries.at(-2) ?? "";
          if (previous.startsWith("/search?") || previous === "/search") {
            event.preventDefault();
            navigate(-1);
          }
        }}
        className="flex size-10 items-center justify-center rounded-full text-zinc-700 hover:bg-zinc-200/60"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M15 18l-6-6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="sr-only">Back</span>
      </Link>
      <h1 className="text-xl font-bold tracking-tight text-zinc-900 md:text-2xl">Search</h1>
    </div>
  );
}

const TAB_LABELS: Record<SearchTab, string> = { latest: "Latest", media: "Media", people: "People" };

/** spec 2 §2: tabs Latest, Media, People, only when q is present. */
function SearchTabs({ q, show, filters }: { q: string; show: SearchTab; filters: SearchFilters }) {
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

const CONDITION_LABELS: Record<(typeof LISTING_CONDITIONS)[number], string> = {
  new: "New",
  like_new: "Like new",
  good: "Good",
  fair: "Fair",
  for_parts: "For parts",
};

const selectClass =
  "h-10 rounded-full border border-zinc-300 bg-white px-3 text-sm text-zinc-800 focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 focus:outline-none";

/**
 * Filters and sort (decision 0193): a GET form, so the address carries them and
 * a search can be shared; a change submits it (the Apply button does without JavaScript).
 */
function FilterBar({ q, show, filters }: { q: string; show: SearchTab; filters: SearchFilters }) {
  const submit = useSubmit();
  const onChange = (event: React.ChangeEvent<HTMLFormElement>) => {
    if (event.target instanceof HTMLInputElement && event.target.type === "number") return;
    submit(event.currentTarget, { preventScrollReset: true });
  };
  const sorts = LISTING_FILTERS_READY ? SEARCH_SORTS : (["newest"] as const);
  return (
    <Form
      method="get"
      action="/search"
      onChange={onChange}
      aria-label="Filters"
      className="flex flex-wrap items-center gap-2 rounded-2xl border border-zinc-200 bg-white p-3"
    >
      <input type="hidden" name="q" value={q} />
      {show !== "latest" ? <input type="hidden" name="show" value={show} /> : null}
      <label className="flex min-w-0 basis-full items-center gap-2 text-sm text-zinc-700 xs:max-w-72 xs:flex-1 xs:basis-auto">
        <span className="sr-only">Category</span>
        <select
          name="category"
          defaultValue={filters.category ?? "all"}
          key={filters.category ?? "all"}
          className={`${selectClass} w-full min-w-0`}
        >
          {CATEGORY_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-sm text-zinc-700">
        <span className="sr-only">Sort by</span>
        <select name="sort" defaultValue={filters.sort} key={filters.sort} className={selectClass}>
          {sorts.map((sort) => (
            <option key={sort} value={sort}>
              {SEARCH_SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </label>
      {LISTING_FILTERS_READY ? (
        <>
          <PriceBound name="min_price" label="Min $" cents={filters.minPriceCents} />
          <PriceBound name="max_price" label="Max $" cents={filters.maxPriceCents} />
          <label className="flex items-center gap-2 text-sm text-zinc-700">
            <span className="sr-only">Condition</span>
            <select name="condition" defaultValue={filters.condition ?? ""} className={selectClass}>
              <option value="">Any condition</option>
              {LISTING_CONDITIONS.map((condition) => (
                <option key={condition} value={condition}>
                  {CONDITION_LABELS[condition]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm text-zinc-700">
            <input type="checkbox" name="sold" value="1" defaultChecked={filters.includeSold} />
            Show sold
          </label>
        </>
      ) : null}
      <button type="submit" className={buttonClass("secondary", "h-10")}>
        Apply
      </button>
    </Form>
  );
}

/** One end of the price range, in dollars (the filter keeps cents). */
function PriceBound({ name, label, cents }: { name: string; label: string; cents: number | null }) {
  return (
    <label className="flex items-center gap-1 text-sm text-zinc-700">
      {label}
      <input
        type="number"
        name={name}
        min={0}
        inputMode="numeric"
        defaultValue={cents === null ? "" : cents / 100}
        className={`${selectClass} w-20`}
      />
    </label>
  );
}

function NoResults({ q }: { q: string }) {
  return (
    <section className="rounded-2xl border border-dashed border-zinc-300 bg-white px-6 py-12 text-center">
      <h2 className="text-lg font-bold break-words text-zinc-900">No results for "{q}"</h2>
      <p className="mt-1 text-[15px] text-zinc-600">Try searching for something else</p>
    </section>
  );
}

function ResultsView({
  q,
  results,
  filters,
  listKey,
}: {
  q: string;
  results: Results;
  filters: SearchFilters;
  listKey: string;
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

export function PersonRow({ person }: { person: PersonHit }): ReactNode {
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

/** spec 2 §2: 'Without q: list of popular searches, each linking to a search with its text as q.' */
function PopularSearches({ popular }: { popular: string[] }) {
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
