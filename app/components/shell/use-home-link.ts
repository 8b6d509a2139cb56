import type { MouseEvent } from "react";
import { useLocation } from "react-router";

/**
 * spec 1 §2: tapping home while on /home scrolls to the top instead of
 * reloading the feed. Returns the click handler for every Home link.
 */
export function useScrollHomeToTop(): (event: MouseEvent<HTMLAnchorElement>) => void {
  const { pathname } = useLocation();
  return (event) => {
    if (pathname !== "/home" || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0)
      return;
    event.preventDefault();
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
  };
}
