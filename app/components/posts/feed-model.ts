// The feed's list logic, pure (tested in feed-model.test.ts): the paging rules shared by
// /home, /saved and the profile lists. Sponsored posts are placed by the server
// (server/ads/feed-insertion.ts, decision 0274) and arrive as items of the page.

/** spec 2 §4 'Load-more is locked for 1 second after each load'. */
export const LOAD_MORE_LOCK_MS = 1000;

/**
 * A page appended to what is shown: posts already there are skipped (a keyset
 * page never repeats one, but a post bumped between loads must not show twice).
 * Items are told apart by `keyOf` (a sponsored post by its place, server/ads/sponsored.shared.ts).
 */
export function appendPage<T extends { id: string }>(
  shown: readonly T[],
  page: readonly T[],
  keyOf: (item: T) => string = (item) => item.id,
): T[] {
  const seen = new Set(shown.map(keyOf));
  return [...shown, ...page.filter((item) => !seen.has(keyOf(item)))];
}

export interface LoadMoreState {
  /** The next page's cursor; null at the end. */
  cursor: string | null;
  /** A page is being fetched. */
  busy: boolean;
  /** Epoch ms before which no load starts (the 1 s lock). */
  lockedUntil: number;
}

/** Whether the next page may be asked for now; the wait in ms when only the lock stands in the way. */
export function loadMoreDecision(state: LoadMoreState, now: number): { load: boolean; waitMs: number } {
  if (!state.cursor || state.busy) return { load: false, waitMs: 0 };
  if (now < state.lockedUntil) return { load: false, waitMs: state.lockedUntil - now };
  return { load: true, waitMs: 0 };
}

/** Whether a submission is a card's Save / Saved! (post route intent 'toggle-save'). */
export function isSaveToggle(formData: FormData | undefined): boolean {
  return formData?.get("intent") === "toggle-save";
}

/** Whether two addresses are the same page and query but for `param` (added, removed or changed). */
export function differsOnlyIn(a: URL, b: URL, param: string): boolean {
  if (a.pathname !== b.pathname || a.searchParams.get(param) === b.searchParams.get(param)) return false;
  const strip = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete(param);
    params.sort();
    return params.toString();
  };
  return strip(a) === strip(b);
}
