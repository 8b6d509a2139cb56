import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import { useFetchers, useNavigation, useRevalidator } from "react-router";
import type { LiveEvent, LiveListener, RealtimeClient } from "./realtime-client";

export type { LiveEvent } from "./realtime-client";

/**
 * The realtime layer in React (decision 0212). The root route renders
 * <RealtimeProvider> with the viewer and the root loader's `realtimeSeq`; for a visitor it does
 * nothing. Screens listen with useRealtimeEvent / useRealtimeEvents, or reload their loaders on
 * chosen event types with useRevalidateOnRealtime. A 'reset' (the stream was behind the
 * backlog) reloads every loader on the page.
 */
const RealtimeContext = createContext<RealtimeClient | null>(null);

export function RealtimeProvider({
  userId,
  seq,
  children,
}: {
  userId: string | null;
  seq: number | null;
  children: ReactNode;
}) {
  const [client, setClient] = useState<RealtimeClient | null>(null);
  // Only the number of the page first loaded for this user counts: the stream moves it on from there.
  const startSeq = useRef<{ userId: string | null; seq: number | null }>({ userId, seq });
  if (startSeq.current.userId !== userId) startSeq.current = { userId, seq };
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  useEffect(() => {
    const from = startSeq.current.userId === userId ? startSeq.current.seq : null;
    if (!userId || from === null) return;
    const root = document.documentElement;
    let started: RealtimeClient | null = null;
    let stopped = false;
    // Decision 0340: the stream's client is not part of the first load; events sent meanwhile are
    // replayed from `from` once it connects.
    void import("./realtime-client").then(({ RealtimeClient }) => {
      if (stopped) return;
      const client = new RealtimeClient(userId, from, (role) => {
        root.dataset.realtimeRole = role;
      });
      started = client;
      // For the end-to-end tests and anyone debugging: the last event number this tab has.
      const mark = () => {
        root.dataset.realtimeSeq = String(client.seq);
      };
      mark();
      client.subscribe(mark);
      client.onReset(() => {
        mark();
        void revalidate.current();
      });
      client.start();
      // A transition: the parts of the page still waiting for their code to hydrate (decision
      // 0370) hydrate first, instead of being rendered again from scratch by this change.
      startTransition(() => setClient(client));
    });
    return () => {
      stopped = true;
      started?.stop();
      setClient(null);
      delete root.dataset.realtimeSeq;
      delete root.dataset.realtimeRole;
    };
  }, [userId]);

  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

/** Calls `handler` with every live event of the signed-in viewer (each once, in order). */
export function useRealtimeEvents(handler: LiveListener): void {
  const client = useContext(RealtimeContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!client) return;
    return client.subscribe((event) => latest.current(event));
  }, [client]);
}

/** Calls `handler` with the viewer's live events of one type. */
export function useRealtimeEvent(type: string, handler: (event: LiveEvent) => void): void {
  useRealtimeEvents((event) => {
    if (event.type === type) handler(event);
  });
}

let liveRevalidation = false;

/**
 * Whether the reload React Router is deciding on right now was started by a live event, not by the
 * reader. A list the reader has scrolled through page by page reads it in its `shouldRevalidate`
 * and stays as it is: reloading it would bring it back to its first page under the reader, and a
 * chat or notification event changes nothing in it. React Router asks `shouldRevalidate` within
 * `revalidate()` itself when no navigation or submission is under way, which is the only time
 * `useRevalidateOnRealtime` calls it.
 */
export function isLiveRevalidation(): boolean {
  return liveRevalidation;
}

/**
 * Reloads the page's loaders when an event of one of `types` arrives, at most once per
 * `throttleMs` (a burst of messages costs one reload at its start and one at its end).
 */
export function useRevalidateOnRealtime(types: readonly string[], throttleMs = 1000): void {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  // A reload while a form or fetcher submission is under way would reload the page being left,
  // and its loader could send the student elsewhere (a New Message page whose chat now exists):
  // an event that arrives meanwhile reloads once the submission and its redirect have landed.
  const fetchers = useFetchers();
  const navigating =
    useNavigation().state !== "idle" || fetchers.some((fetcher) => fetcher.state === "submitting");
  const busy = useRef(navigating);
  busy.current = navigating;
  const state = useRef<{ last: number; timer: ReturnType<typeof setTimeout> | null; deferred: boolean }>({
    last: 0,
    timer: null,
    deferred: false,
  });
  const run = useRef(() => {
    const current = state.current;
    current.timer = null;
    if (busy.current) {
      current.deferred = true;
      return;
    }
    current.last = Date.now();
    liveRevalidation = true;
    try {
      void revalidate.current();
    } finally {
      liveRevalidation = false;
    }
  });
  useEffect(() => {
    if (!navigating && state.current.deferred) {
      state.current.deferred = false;
      run.current();
    }
  }, [navigating]);
  useEffect(
    () => () => {
      if (state.current.timer) clearTimeout(state.current.timer);
    },
    [],
  );
  useRealtimeEvents((event) => {
    if (!types.includes(event.type)) return;
    const current = state.current;
    if (current.timer) return;
    const wait = current.last + throttleMs - Date.now();
    if (wait <= 0) run.current();
    else current.timer = setTimeout(run.current, wait);
  });
}

/**
 * The shell's live data (decision 0235): a chat or notification event reloads the
 * page's loaders, the root's unread badges among them, and an open chat with them.
 */
export function RevalidateOnRealtime({ types }: { types: readonly string[] }): null {
  useRevalidateOnRealtime(types, 300);
  return null;
}
