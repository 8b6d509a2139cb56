import { type RefObject, useEffect } from "react";
import type { AnalyticsAction } from "~/server/ads/analytics-actions";

// The cards' side of ad analytics (spec 2 §7, decisions 0273 and 0467). What sends and watches
// is in ./analytics-sender, loaded on first use: the feed's first load carries only these two.
const loadSender = () => import("./analytics-sender");

/** Sends one analytics action about a boosted post whose page registered its token. */
export function trackPostAction(postId: string, action: AnalyticsAction): void {
  void loadSender().then((sender) => sender.sendPostAction(postId, action));
}

/**
 * Registers the token the page was rendered with for `postId` (null: the post is not boosted),
 * and counts a view once `ref`'s element has been at least half visible for a second, when
 * `enabled` (never the owner's own).
 */
export function useViewTracking(
  ref: RefObject<HTMLElement | null>,
  postId: string,
  token: string | null | undefined,
  enabled: boolean,
): void {
  useEffect(() => {
    const element = ref.current;
    if (!token) return;
    let stop: (() => void) | undefined;
    let ended = false;
    void loadSender().then((sender) => {
      sender.rememberToken(postId, token);
      if (enabled && element && !ended) stop = sender.watchView(element, postId);
    });
    return () => {
      ended = true;
      stop?.();
    };
  }, [ref, postId, token, enabled]);
}
