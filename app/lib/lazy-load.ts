import { useState } from "react";

// Issue 16 §2: what the first paint does not need (the composer, modals, menus, form schemas)
// is split into chunks of its own, fetched on first use, on a sign of intent (pointer or focus
// on the control that needs it) or once the page has loaded and the browser is idle.

type Load = () => Promise<unknown>;

const queued: Load[] = [];
let draining = false;

function whenIdle(run: () => void) {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(run, { timeout: 5000 });
  else setTimeout(run, 200);
}

function drain() {
  const next = queued.shift();
  if (!next) {
    draining = false;
    return;
  }
  // One chunk per idle period, so fetching and compiling them never blocks a tap for long.
  next().then(
    () => whenIdle(drain),
    () => whenIdle(drain),
  );
}

/**
 * Fetches a lazily loaded chunk after the page's load event, when the browser is idle.
 * A no-op on the server. Calling `load` again later costs nothing: a module loads once.
 */
export function preloadWhenIdle(load: Load): void {
  if (typeof window === "undefined") return;
  queued.push(load);
  if (draining) return;
  draining = true;
  const start = () => whenIdle(drain);
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}

/** Props that fetch a lazily loaded chunk when the user points at or focuses the control that needs it. */
export function preloadOnIntent(load: Load) {
  const preload = () => {
    load().catch(() => {
      // A failed prefetch is retried on use, where React's Suspense reports it.
    });
  };
  return { onPointerEnter: preload, onFocus: preload, onTouchStart: preload };
}

/**
 * Whether `value` has been true at any render so far: a lazily loaded modal mounts on its
 * first opening and stays mounted, so closing it animates and returns focus as before.
 */
export function useOnceTrue(value: boolean): boolean {
  const [seen, setSeen] = useState(value);
  if (value && !seen) setSeen(true);
  return seen || value;
}
