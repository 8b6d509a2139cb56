import type { AnalyticsAction } from "~/server/ads/analytics-actions";

// Loaded on first use by app/lib/analytics.ts, so the feed's first load carries none of it
// (the first-load budget of decision 0340): only a page with a boosted post on screen ever needs it.

/** The beacon's address (server/http/endpoints/analytics-beacon.ts ANALYTICS_PATH). */
const ANALYTICS_PATH = "/api/analytics";

/**
 * The tokens the server rendered with each boosted post on screen (decision 0467):
 * the sponsored card and the boosted post's page register theirs, and an action is sent only
 * for a post with one — the only posts whose actions count.
 */
const tokens = new Map<string, string>();

export function rememberToken(postId: string, token: string): void {
  tokens.set(postId, token);
}

/**
 * Sends one analytics action about a boosted post (spec 2 §7 trackPostAnalytics). The server
 * counts it at most once per post, action and browser session (decision 0273); this tab also
 * sends each at most once, so scrolling back and forth costs no requests. No IP lookup.
 * A visitor's first action is answered 202 with their session cookie and sent once more
 * (decision 0467), hence fetch (which reads the answer) rather than sendBeacon.
 */
const sent = new Set<string>();

export function sendPostAction(postId: string, action: AnalyticsAction): void {
  const key = `${postId}:${action}`;
  const token = tokens.get(postId);
  if (!token || sent.has(key) || typeof fetch === "undefined") return;
  sent.add(key);
  const body = new URLSearchParams({ postId, action, token });
  const send = () =>
    fetch(ANALYTICS_PATH, { method: "POST", body, keepalive: true, credentials: "same-origin" });
  void send()
    .then((response) => (response.status === 202 ? send() : response))
    .catch(() => {});
}

/** A view is an MRC-viewable impression: at least half the card on screen for one second (docs/research/round-2.md §4). */
export const VIEW_VISIBLE_RATIO = 0.5;
export const VIEW_DWELL_MS = 1000;

/** Counts a view of `postId` once `element` has been at least half visible for a second; returns the stop. */
export function watchView(element: HTMLElement, postId: string): () => void {
  if (typeof IntersectionObserver === "undefined") return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const observer = new IntersectionObserver(
    (entries) => {
      const visible = entries.some(
        (entry) => entry.isIntersecting && entry.intersectionRatio >= VIEW_VISIBLE_RATIO,
      );
      clearTimeout(timer);
      if (visible) {
        timer = setTimeout(() => {
          sendPostAction(postId, "view");
          observer.disconnect();
        }, VIEW_DWELL_MS);
      }
    },
    { threshold: [0, VIEW_VISIBLE_RATIO, 1] },
  );
  observer.observe(element);
  return () => {
    clearTimeout(timer);
    observer.disconnect();
  };
}
