import {
  type ComponentType,
  createElement,
  lazy,
  type ReactElement,
  Suspense,
  useEffect,
  useId,
  useState,
} from "react";

// Decision 0340: what the first paint does not need (the composer, modals, menus, form schemas)
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

/**
 * A component whose browser code is a chunk of its own, for parts of a page a phone does not show
 * (the side navigation, the right-hand widget), that only some visitors get (the landing page, the
 * private gate, the banners) or that wait for a tap (the search box's combobox, menus, a card's
 * buttons). The server renders it completely, inline (app/entry.server.tsx sends the document
 * once all of it is ready, and never outlines a boundary), so the HTML, and the page without
 * JavaScript, are what a static import gives. In the browser its Suspense
 * boundary keeps the server's HTML until the chunk is there and then hydrates it: it stays
 * readable, its links and forms work, and React replays a click made in the meantime. The chunk is
 * fetched when hydration reaches it, beside the rest. Decision 0370.
 *
 * Its props should stay the same while the page hydrates (a boundary that gets an urgent update
 * before its chunk is there is rendered again from scratch): parts read what changes from the
 * page's data (useRootData) or take what the loader gave.
 */
export function hydratedLater<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): (props: Props) => ReactElement {
  const Part = lazy(() => load().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: made once per part, at module level, as lazy() is.
  function HydratedLater(props: Props) {
    const id = useId();
    if (typeof document !== "undefined" && !partsHydrated.has(id)) partsWaiting.add(id);
    return createElement(
      Suspense,
      { fallback: null },
      createElement(Part, props),
      createElement(PartHydrated, { id }),
    );
  }
  return HydratedLater;
}

/**
 * What a hydratedLater part writes on the server, for a part rendered apart from the page (its
 * SharedMarkup `markup`, decision 0390): the part's elements inside the same Suspense boundary,
 * so the browser's boundary hydrates against it as against the part rendered in place.
 */
export function hydratedLaterMarkup(part: ReactElement): ReactElement {
  return createElement(Suspense, { fallback: null }, part);
}

/** The hydratedLater parts of the page whose code has not come yet, by their useId. */
const partsWaiting = new Set<string>();
const partsHydrated = new Set<string>();
let onAllPartsHydrated: (() => void) | null = null;

/** Inside a part's boundary, after the part: its effect runs once the boundary has hydrated. */
function PartHydrated({ id }: { id: string }) {
  useEffect(() => {
    partsHydrated.add(id);
    partsWaiting.delete(id);
    if (partsWaiting.size === 0) onAllPartsHydrated?.();
  }, [id]);
  return null;
}

/**
 * Calls `done` once every hydratedLater part of the page has hydrated (at once if none waits): the
 * moment every control of the page answers to its script. A click before it still works, as the
 * page without JavaScript does (a form posts, a link loads its page).
 */
export function whenPartsHydrated(done: () => void): void {
  if (partsWaiting.size === 0) done();
  else onAllPartsHydrated = done;
}
