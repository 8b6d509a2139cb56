import { type RefObject, useEffect } from "react";
import type { AnalyticsAction } from "~/server/ads/analytics-actions";

/** The beacon's address (server/http/payments-routes.ts ANALYTICS_PATH). */
const ANALYTICS_PATH = "/api/analytics";

/**
 * Sends one analytics action about a boosted post (spec 2 §7 trackPostAnalytics). The server
 * counts it at most once per post, action and browser session (decision 0273); this tab also
 * sends each at most once, so scrolling back and forth costs no requests. No IP lookup.
 */
const sent = new Set<string>();

export function trackPostAction(postId: string, action: AnalyticsAction): void {
  const key = `${postId}:${action}`;
  if (sent.has(key) || typeof navigator === "undefined") return;
  sent.add(key);
  const body = new URLSearchParams({ postId, action });
  if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon(ANALYTICS_PATH, body)) return;
  void fetch(ANALYTICS_PATH, { method: "POST", body, keepalive: true, credentials: "same-origin" }).catch(
    () => {},
  );
}

/** A view is an MRC-viewable impression: at least half the card on screen for one second (round2-design §4). */
export const VIEW_VISIBLE_RATIO = 0.5;
export const VIEW_DWELL_MS = 1000;

/** Counts a view of `postId` once `ref`'s element has been at least half visible for a second. */
export function useViewTracking(ref: RefObject<HTMLElement | null>, postId: string, enabled: boolean): void {
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || typeof IntersectionObserver === "undefined") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.some(
          (entry) => entry.isIntersecting && entry.intersectionRatio >= VIEW_VISIBLE_RATIO,
        );
        clearTimeout(timer);
        if (visible) {
          timer = setTimeout(() => {
            trackPostAction(postId, "view");
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
  }, [ref, postId, enabled]);
}
