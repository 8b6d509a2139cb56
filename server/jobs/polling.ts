/**
 * The loop under every background worker of a process (the mail worker, the singleton jobs):
 * a round on a timer and whenever woken, never two at once in one process.
 */

export interface Poller {
  /** Runs a round now (or right after the one under way in this process). */
  wake(): void;
  /** Stops the timer and waits for the round under way in this process. */
  stop(): Promise<void>;
}

export interface PollerOptions {
  /** How often a round runs when nothing wakes it. */
  everyMs: number;
  /**
   * One round. Return `{ more: true }` when there is more to do at once (a full batch): the
   * round is repeated without waiting for the timer. A round that loops by itself asks
   * `stopping()` between its steps, so stop() does not wait for a long backlog.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a round that returns nothing is a plain async function.
  round(stopping: () => boolean): Promise<void | { more: boolean }>;
  /** A round that threw: logged here, and the next tick tries again. */
  onError(error: unknown): void;
}

/**
 * Starts the loop: a first round at once, then one every `everyMs`. A wake during a round
 * runs one more right after it (what woke it may have come after the round read the work).
 * The timer does not keep the process alive.
 */
export function startPolling(options: PollerOptions): Poller {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const stopping = () => stopped;

  const round = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        let more = false;
        do {
          again = false;
          const result = await options.round(stopping);
          more = result?.more === true;
        } while ((again || more) && !stopped);
      } catch (error) {
        options.onError(error);
      } finally {
        running = null;
      }
    })();
  };

  const timer = setInterval(round, options.everyMs);
  timer.unref();
  round();

  return {
    wake: round,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
