import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { appendPage, LOAD_MORE_LOCK_MS } from "~/app/components/posts/feed-model";
import { tileFromJson, useListPageFetcher } from "~/app/lib/list-pages";
import type { Page } from "~/server/lists/pages";
import { listPageHref } from "~/server/posts/list-names.shared";
import type { FeedListingFilters } from "~/server/posts/listing.shared";
import type { MediaTileData } from "~/server/posts/media-tiles";

/**
 * spec 2 §9 'end-of-list trigger within 1 px of the bottom (saved, media) or 251 px (profile)':
 * how far below the viewport the end of a list may be when the next page is asked for.
 */
export const END_TRIGGER = { media: "0px 0px 1px 0px", profile: "0px 0px 251px 0px" } as const;

/**
 * /media's pages: its own address after a cursor (the link without JavaScript), and as JSON
 * (decision 0106), with the listing filters of decision 0170 (`?free=1`, `?sold=1`).
 */
export function mediaPages(filters: FeedListingFilters = { free: false, showSold: false }) {
  const query = `${filters.free ? "&free=1" : ""}${filters.showSold ? "&sold=1" : ""}`;
  return {
    href: (cursor: string) => `/media?cursor=${encodeURIComponent(cursor)}${query}`,
    nextPageHref: (cursor: string) => listPageHref("media", cursor, filters),
  };
}

/** /media's pages without filters (the grid under a media post). */
export const MEDIA_PAGES = mediaPages();

interface PagedListOptions {
  /** The page the route's loader rendered. */
  first: Page<MediaTileData>;
  /** Names the list (tab, owner, starting cursor): when it changes, the pages loaded so far are dropped. */
  listKey: string;
  /** The address of the page after `cursor` as JSON (server/posts/list-names.shared.ts listPageHref). */
  nextPageHref(cursor: string): string;
}

export interface PagedList<TItem> {
  items: TItem[];
  /** The cursor of the next page; null once a page came back short (the end of the list). */
  nextCursor: string | null;
  loading: boolean;
  /** Why the last page could not be loaded, until the next one is asked for. */
  error: string | null;
  /** Asks for the next page, unless one is loading, the list ended or the 1 s lock holds. */
  loadMore(): void;
  /** Takes an item out (e.g. a post its owner deleted from a tile). */
  remove(id: string): void;
}

/**
 * Keyset 'load more' for a media grid (decision 0081; the post lists use FeedList,
 * which draws cards, with the same rules from feed-model.ts): the first page comes
 * from the route, the next ones as JSON (decision 0106), appended in order. Without
 * JavaScript the route's own `?cursor=` address is a plain link (see ListEnd), so
 * the list pages either way.
 */
export function usePagedList({ first, listKey, nextPageHref }: PagedListOptions): PagedList<MediaTileData> {
  const fetcher = useListPageFetcher(tileFromJson);
  const [more, setMore] = useState<{
    key: string;
    items: MediaTileData[];
    nextCursor: string | null;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removed, setRemoved] = useState<ReadonlySet<string>>(() => new Set());
  const [locked, setLocked] = useState(false);
  const handled = useRef<unknown>(undefined);
  // The page last asked for. Set at once (state only changes on the next render): the sentinel and
  // the load-more tile may both ask within one tick, and an observer made in the render where the
  // answer arrived may ask again for the cursor just loaded, before the appended page is rendered.
  // Cleared when a load fails, so the same page may be asked for again.
  const requested = useRef<{ listKey: string; cursor: string } | null>(null);
  // The caller's function may be new on every render; the latest is read when needed.
  const hrefRef = useRef(nextPageHref);
  hrefRef.current = nextPageHref;

  const current = more?.key === listKey ? more : null;
  const nextCursor = current ? current.nextCursor : first.nextCursor;
  const firstCursor = first.nextCursor;

  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state !== "idle" || data === undefined || data === handled.current) return;
    handled.current = data;
    const asked = requested.current;
    // A page asked for by another list (the tab changed meanwhile) is dropped.
    if (asked?.listKey !== listKey) return;
    const page = data.page;
    setLocked(true);
    if (!page) {
      requested.current = null;
      setError(data.listError);
      return;
    }
    setError(null);
    setMore((previous) => {
      const shown = previous?.key === listKey ? previous : { items: [], nextCursor: firstCursor };
      // Only onto the list it continues: an answer handled twice is appended once.
      if (shown.nextCursor !== asked.cursor) return previous;
      return { key: listKey, items: appendPage(shown.items, page.items), nextCursor: page.nextCursor };
    });
  }, [fetcher.state, fetcher.data, listKey, firstCursor]);

  useEffect(() => {
    if (!locked) return;
    const timer = setTimeout(() => setLocked(false), LOAD_MORE_LOCK_MS);
    return () => clearTimeout(timer);
  }, [locked]);

  const loading = fetcher.state !== "idle";
  const { load } = fetcher;
  const loadMore = useCallback(() => {
    if (!nextCursor || loading || locked) return;
    const asked = requested.current;
    if (asked?.listKey === listKey && asked.cursor === nextCursor) return;
    requested.current = { listKey, cursor: nextCursor };
    load(hrefRef.current(nextCursor));
  }, [nextCursor, loading, locked, listKey, load]);

  const remove = useCallback((id: string) => setRemoved((ids) => new Set(ids).add(id)), []);

  // A post bumped between two loads may come twice: appendPage keeps its first place.
  const items = useMemo(
    () => appendPage(first.items, current?.items ?? []).filter((item) => !removed.has(item.id)),
    [first.items, current, removed],
  );

  return { items, nextCursor, loading, error, loadMore: locked ? noop : loadMore, remove };
}

function noop() {}

/** Calls `onVisible` while `target` is within `rootMargin` of the viewport (infinite scroll). */
export function useWhenVisible(
  target: RefObject<Element | null>,
  onVisible: () => void,
  rootMargin: string,
): void {
  useEffect(() => {
    const element = target.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    // Re-created whenever onVisible changes (a page arrived, the lock ended), so a
    // sentinel still in view asks again instead of waiting for a scroll.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onVisible();
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [target, onVisible, rootMargin]);
}

/**
 * The foot of a paged list: an invisible sentinel that loads the next page when
 * it nears the viewport, a 'Load more' link for keyboards and for pages without
 * JavaScript (unless the list has its own, like the media grid's last tile), and
 * spec 2 §2's "You've reached the end." once the list ended.
 */
export function ListEnd({
  list,
  nextHref,
  rootMargin,
  showEnd,
}: {
  list: PagedList<unknown>;
  /** The no-JavaScript address of the next page; null when the list shows its own control. */
  nextHref: string | null;
  rootMargin: string;
  /** Whether the end message makes sense (not under an empty state). */
  showEnd: boolean;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  useWhenVisible(sentinel, list.loadMore, rootMargin);
  if (!list.nextCursor) {
    return showEnd ? (
      <p className="px-4 py-6 text-center text-sm font-medium text-zinc-500">You've reached the end.</p>
    ) : null;
  }
  return (
    <div ref={sentinel} className="flex min-h-px justify-center px-4 py-2">
      {nextHref ? (
        <Link
          to={nextHref}
          preventScrollReset
          onClick={(event) => {
            event.preventDefault();
            list.loadMore();
          }}
          aria-busy={list.loading || undefined}
          className="my-2 rounded-full px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {list.loading ? "Loading..." : "Load more"}
        </Link>
      ) : null}
      <span className="sr-only" aria-live="polite">
        {list.loading ? "Loading more" : ""}
      </span>
      {list.error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {list.error}
        </p>
      ) : null}
    </div>
  );
}
