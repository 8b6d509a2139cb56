import { useCallback, useEffect, useRef, useState } from "react";
import { SOMETHING_WENT_WRONG as FAILURE } from "~/server/errors.shared";
import type { Page } from "~/server/lists/pages";
import type { MediaTileData } from "~/server/posts/media-tiles";
import type { PostSummary } from "~/server/posts/views";

/**
 * The browser's side of `GET /api/lists/{list}` (decision 0106; server/http/endpoints/list-pages.ts):
 * the next page of a list, fetched as JSON while the student scrolls.
 */

/** A page, or the message that says why there is none (a tampered cursor, signed out meanwhile, offline). */
export type ListPageResult<T> = { page: Page<T>; listError: null } | { page: null; listError: string };

/**
 * The posts catalogue's wording (spec 2 §8, with its period: POST_MESSAGES.somethingWentWrong), as
 * the JSON endpoint answers an unexpected error. Spelled from server/errors.shared.ts rather than read from
 * the catalogue, which would bring all of server/posts/post-rules.shared.ts into the feed's first load.
 */
const SOMETHING_WENT_WRONG = `${FAILURE}.`;

/** The address of the next page for the no-JavaScript 'Load more' link: the current query plus `cursor`. */
export function pageHref(pathname: string, search: string, cursor: string): string {
  const params = new URLSearchParams(search);
  params.set("cursor", cursor);
  return `${pathname}?${params.toString()}`;
}

/** JSON carries dates as ISO strings: the lists show Date objects, as the loaders give them. */
type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] };

export function postFromJson(post: Json<PostSummary>): PostSummary {
  return { ...post, createdAt: new Date(post.createdAt), lastModified: new Date(post.lastModified) };
}

export function tileFromJson(tile: Json<MediaTileData>): MediaTileData {
  return { ...tile, createdAt: new Date(tile.createdAt) };
}

export async function fetchListPage<T>(
  href: string,
  revive: (item: Json<T>) => T,
  signal?: AbortSignal,
): Promise<ListPageResult<T>> {
  let response: Response;
  try {
    response = await fetch(href, { signal, headers: { Accept: "application/json" } });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { page: null, listError: SOMETHING_WENT_WRONG };
  }
  const body = (await response.json().catch(() => null)) as {
    page?: { items: Json<T>[]; nextCursor: string | null };
    message?: string;
  } | null;
  if (!response.ok || !body?.page) return { page: null, listError: body?.message ?? SOMETHING_WENT_WRONG };
  return { page: { items: body.page.items.map(revive), nextCursor: body.page.nextCursor }, listError: null };
}

export interface ListPageFetcher<T> {
  state: "idle" | "loading";
  /** The last answer: a new object each time, so a list can tell it handled one. */
  data: ListPageResult<T> | undefined;
  /** Fetches `href`; a load still running is dropped. */
  load(href: string): void;
}

/** Fetches list pages one at a time, like a React Router fetcher (state, data, load). */
export function useListPageFetcher<T>(revive: (item: Json<T>) => T): ListPageFetcher<T> {
  const [answer, setAnswer] = useState<{
    state: "idle" | "loading";
    data: ListPageResult<T> | undefined;
  }>({ state: "idle", data: undefined });
  const running = useRef<AbortController | null>(null);
  const reviveRef = useRef(revive);
  reviveRef.current = revive;
  useEffect(() => () => running.current?.abort(), []);
  const load = useCallback((href: string) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setAnswer((previous) => ({ ...previous, state: "loading" }));
    fetchListPage(href, reviveRef.current, controller.signal).then(
      (data) => {
        if (running.current !== controller) return;
        running.current = null;
        setAnswer({ state: "idle", data });
      },
      // Aborted: a newer load replaced it, or the list is gone.
      () => {},
    );
  }, []);
  return { state: answer.state, data: answer.data, load };
}
