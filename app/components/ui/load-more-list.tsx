import { type ReactNode, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { useAskedPages } from "~/app/lib/asked-pages";
import { LoadMoreLink } from "./load-more-link";

/** A page of a short keyset list as its route's loader returns it. */
interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A short keyset list (savers, notifications) with 'Load more' under it: the next page is
 * fetched from the same route and appended in place (or opened without JavaScript). A row that
 * moved onto the next page meanwhile is shown once. `restartOnNewPage`: a fresh first page from
 * the loader (a revalidation) replaces what is shown; without it, only a new `key` does.
 */
export function LoadMoreList<T extends { id: string }>({
  page,
  label,
  listClassName,
  empty,
  restartOnNewPage = false,
  renderItem,
}: {
  page: ListPage<T>;
  label: string;
  listClassName: string;
  empty: ReactNode;
  restartOnNewPage?: boolean;
  renderItem: (item: T) => ReactNode;
}) {
  const fetcher = useFetcher<{ page: ListPage<T> | null }>();
  const [items, setItems] = useState(page.items);
  const [cursor, setCursor] = useState(page.nextCursor);
  const nextPage = useAskedPages(fetcher, (received) => {
    const next = received.page;
    if (!next) return;
    setItems((shown) => {
      const seen = new Set(shown.map((item) => item.id));
      return [...shown, ...next.items.filter((item) => !seen.has(item.id))];
    });
    setCursor(next.nextCursor);
  });
  const { forget } = nextPage;

  useEffect(() => {
    if (!restartOnNewPage) return;
    forget();
    setItems(page.items);
    setCursor(page.nextCursor);
  }, [page, restartOnNewPage, forget]);

  if (items.length === 0) return empty;
  return (
    <section className="rounded-2xl border border-zinc-200 bg-white p-2">
      <ul aria-label={label} className={listClassName}>
        {items.map(renderItem)}
      </ul>
      {cursor ? (
        <LoadMoreLink cursor={cursor} loading={fetcher.state !== "idle"} onLoad={nextPage.load} />
      ) : null}
    </section>
  );
}
