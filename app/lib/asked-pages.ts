import { useEffect, useMemo, useRef } from "react";
import type { FetcherWithComponents } from "react-router";

/**
 * 'Load more' through a fetcher: `onPage` gets each answer to a load the reader asked for, once.
 * React Router also loads a fetcher's last address again whenever the page revalidates (a live
 * chat or notification event, a save); that answer is a page already shown, and appending it
 * would show its rows twice, or after the list restarted from a fresh first page, skip the pages
 * between. `forget()` drops a load still on its way (the list it was for has been replaced).
 */
export function useAskedPages<T>(
  fetcher: FetcherWithComponents<T>,
  onPage: (data: T) => void,
): { load: (href: string) => void; forget: () => void } {
  const asked = useRef(false);
  const handled = useRef<unknown>(null);
  const latestOnPage = useRef(onPage);
  latestOnPage.current = onPage;
  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state !== "idle" || data === undefined || handled.current === data) return;
    handled.current = data;
    if (!asked.current) return;
    asked.current = false;
    latestOnPage.current(data);
  }, [fetcher.state, fetcher.data]);
  const latestFetcher = useRef(fetcher);
  latestFetcher.current = fetcher;
  // The same functions on every render: an effect may depend on them.
  return useMemo(
    () => ({
      load: (href: string) => {
        asked.current = true;
        void latestFetcher.current.load(href);
      },
      forget: () => {
        asked.current = false;
      },
    }),
    [],
  );
}
