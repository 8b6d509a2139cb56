import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/**
 * Keeps the badges and the list current (issue 14 §1 'live'). The one place to change when the
 * realtime layer (issue 13: `useRealtimeEvent(type, handler)` in app/lib/realtime.ts) arrives:
 * then `useRealtimeEvent("notification", refresh)` replaces the visibility listener. Until then,
 * the page's data is read again when the tab comes back into view.
 */
export function useLiveNotifications(signedIn: boolean): void {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (!signedIn) return;
    const refresh = () => {
      if (document.visibilityState === "visible" && latest.current.state === "idle") {
        void latest.current.revalidate();
      }
    };
    document.addEventListener("visibilitychange", refresh);
    return () => document.removeEventListener("visibilitychange", refresh);
  }, [signedIn]);
}
