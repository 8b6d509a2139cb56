import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { SponsoredCard } from "~/app/components/ads/sponsored-card";
import { buttonClass } from "~/app/components/ui/button";
import { pageHref, postFromJson, useListPageFetcher } from "~/app/lib/list-pages";
import { type FeedItem, feedItemKey } from "~/server/ads/sponsored.shared";
import type { Page } from "~/server/lists/pages";
import type { PostSummary } from "~/server/posts/views";
import { appendPage, LOAD_MORE_LOCK_MS, loadMoreDecision } from "./feed-model";
import { PostCard } from "./post-card";

/** spec 2 §2, §4: the message under the last post. */
export const END_OF_LIST = "You've reached the end.";

interface FeedListProps {
  /** The page the route's loader read: the first page (or, without JavaScript, the `?cursor=` one). */
  page: Page<PostSummary>;
  /** The address of the page after a cursor as JSON (server/posts/list-names.shared.ts listPageHref). */
  nextPageHref(cursor: string): string;
  /** The list's accessible name ('Posts', 'Saved posts'). */
  label: string;
  /** Shown instead of the list when there is nothing at all. */
  empty: ReactNode;
  /**
   * How close to the bottom the next page loads (spec 2 §9: 'within 1 px of the
   * bottom (saved, media) or 251 px (profile)'; the feed loads a screen ahead).
   */
  triggerMarginPx?: number;
  /** How each post is drawn; PostCard by default. */
  renderPost?(post: PostSummary): ReactNode;
}

interface ListState {
  /** The loader's page this state grew from: a new one (revalidation, new filter) starts over. */
  base: Page<PostSummary>;
  items: PostSummary[];
  cursor: string | null;
}

function fromPage(page: Page<PostSummary>): ListState {
  return { base: page, items: page.items, cursor: page.nextCursor };
}

/**
 * An infinitely scrolling list of posts (spec 2 §2 'Infinite scroll', §4 'Feed
 * pagination'): the next page is fetched as JSON (decision 0106) when the end comes
 * near, at most once a second (the 1 s lock). A 'Load more' link does the same by
 * hand and, without JavaScript, opens the page's own `?cursor=` address. Ends with
 * "You've reached the end.".
 */
export function FeedList({
  page,
  nextPageHref,
  label,
  empty,
  triggerMarginPx = 600,
  renderPost = (post) => <PostCard post={post} />,
}: FeedListProps) {
  const location = useLocation();
  const fetcher = useListPageFetcher(postFromJson);
  const [state, setState] = useState(() => fromPage(page));
  const [listError, setListError] = useState<string | null>(null);
  let current = state;
  if (state.base !== page) {
    // Adjusting state while rendering (React's documented pattern) rather than in an effect: no stale frame.
    current = fromPage(page);
    setState(current);
    setListError(null);
  }

  const sentinel = useRef<HTMLDivElement>(null);
  const visible = useRef(false);
  const lockedUntil = useRef(0);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const requested = useRef<string | null>(null);
  const handled = useRef<unknown>(null);
  // The observer's callback outlives renders: it reads the latest values through these.
  const latest = useRef({ cursor: current.cursor, busy: fetcher.state !== "idle" });
  latest.current = { cursor: current.cursor, busy: fetcher.state !== "idle" };
  const { load: fetchPage } = fetcher;
  // The caller's function may be new on every render; the latest is read when needed.
  const hrefRef = useRef(nextPageHref);
  hrefRef.current = nextPageHref;

  const load = useCallback(() => {
    const { cursor } = latest.current;
    if (!cursor) return;
    requested.current = cursor;
    latest.current.busy = true;
    fetchPage(hrefRef.current(cursor));
  }, [fetchPage]);

  const check = useCallback(() => {
    clearTimeout(retry.current);
    if (!visible.current) return;
    const decision = loadMoreDecision(
      { cursor: latest.current.cursor, busy: latest.current.busy, lockedUntil: lockedUntil.current },
      Date.now(),
    );
    if (decision.load) load();
    else if (decision.waitMs > 0) retry.current = setTimeout(check, decision.waitMs);
  }, [load]);

  // A page arrived: append it (if it is still the one asked for), then lock for 1 s.
  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state !== "idle" || !data || handled.current === data) return;
    handled.current = data;
    lockedUntil.current = Date.now() + LOAD_MORE_LOCK_MS;
    const received = data.page;
    if (received) {
      setState((previous) =>
        previous.cursor === requested.current
          ? {
              ...previous,
              items: appendPage<FeedItem>(previous.items, received.items, feedItemKey),
              cursor: received.nextCursor,
            }
          : previous,
      );
      setListError(null);
    } else {
      setListError(data.listError);
    }
    retry.current = setTimeout(check, LOAD_MORE_LOCK_MS);
  }, [fetcher.state, fetcher.data, check]);

  useEffect(() => {
    const element = sentinel.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        visible.current = entries.some((entry) => entry.isIntersecting);
        check();
      },
      { rootMargin: `0px 0px ${triggerMarginPx}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [check, triggerMarginPx]);

  useEffect(() => () => clearTimeout(retry.current), []);

  if (current.items.length === 0 && !current.cursor) return <>{empty}</>;

  const busy = fetcher.state !== "idle";
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label={label} className="flex flex-col gap-3">
        {current.items.map((item: FeedItem) => (
          // Sponsored posts arrive placed among the posts (server/ads/feed-insertion.ts, decision 0274).
          <li key={feedItemKey(item)}>{item.sponsored ? <SponsoredCard post={item} /> : renderPost(item)}</li>
        ))}
      </ul>
      <div ref={sentinel} className="flex min-h-16 flex-col items-center justify-center gap-2 pb-4">
        <p aria-live="polite" className="text-sm text-zinc-500">
          {busy ? "Loading more posts…" : current.cursor ? "" : END_OF_LIST}
        </p>
        {listError ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {listError}
          </p>
        ) : null}
        {current.cursor && !busy ? (
          <Link
            to={pageHref(location.pathname, location.search, current.cursor)}
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              lockedUntil.current = 0;
              load();
            }}
            className={buttonClass("secondary", "h-11")}
          >
            Load more
          </Link>
        ) : null}
      </div>
    </div>
  );
}
