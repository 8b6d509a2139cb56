// The feed's list logic, pure (tested in feed-model.test.ts): the sponsored-post seam
// and the paging rules shared by /home, /saved and the profile lists.

/** spec 2 §2, §9: 'An ad is inserted after every 4 posts', cycling through the ads. */
export const SPONSORED_EVERY = 4;

/** spec 2 §4 'Load-more is locked for 1 second after each load'. */
export const LOAD_MORE_LOCK_MS = 1000;

export type FeedEntry<P, A> =
  | { kind: "post"; post: P }
  /** `slot` counts the sponsored places from 0, for a stable key while ads cycle. */
  | { kind: "sponsored"; ad: A; slot: number };

/**
 * The seam of the ads issue (spec 2 §2 'Sponsored posts'): after every 4th post
 * one ad, cycling through `ads`. With no ads (until that issue) the posts come
 * through unchanged. Computed over the whole loaded list, so places do not move
 * as pages are appended.
 */
export function interleaveSponsored<P, A>(
  posts: readonly P[],
  ads: readonly A[] = [],
  every = SPONSORED_EVERY,
): FeedEntry<P, A>[] {
  const entries: FeedEntry<P, A>[] = [];
  let slot = 0;
  posts.forEach((post, index) => {
    entries.push({ kind: "post", post });
    if (ads.length > 0 && (index + 1) % every === 0) {
      const ad = ads[slot % ads.length] as A;
      entries.push({ kind: "sponsored", ad, slot });
      slot++;
    }
  });
  return entries;
}

/**
 * A page appended to what is shown: posts already there are skipped (a keyset
 * page never repeats one, but a post bumped between loads must not show twice).
 */
export function appendPage<T extends { id: string }>(shown: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(shown.map((item) => item.id));
  return [...shown, ...page.filter((item) => !seen.has(item.id))];
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

/** The address of the next page for the no-JavaScript 'Load more' link: the current query plus `cursor`. */
export function pageHref(pathname: string, search: string, cursor: string): string {
  const params = new URLSearchParams(search);
  params.set("cursor", cursor);
  return `${pathname}?${params.toString()}`;
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
