/**
 * Decision 0481: the one place that reads the machine's time. Everything else asks a Clock —
 * domain code `ctx.clock` — so tests and TEST_CLOCK=1 can move time (server/clock.test.ts fails
 * on a `Date.now` or a `new Date()` anywhere else under server/).
 */
export interface Clock {
  now(): Date;
  /**
   * Calls `listener` each time the clock jumps forward (the test clock, TEST_CLOCK=1): the job
   * registry then runs every job at once, so what became due runs now. Returns an unsubscribe.
   * Absent on a clock that never jumps.
   */
  onJump?(listener: () => void): () => void;
}

/** The machine's clock: the app's, unless TEST_CLOCK=1. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * The machine's clock moved forward by an offset that only grows (decision 0481): what
 * TEST_CLOCK=1 runs on (server/dev/test-clock.ts keeps the offset the same in every process).
 */
export interface OffsetClock extends Clock {
  onJump(listener: () => void): () => void;
  /** The offset in milliseconds. */
  offsetMs(): number;
  /** Moves to `offsetMs` if that is further than now, and tells the listeners; a smaller one is ignored. */
  moveTo(offsetMs: number): void;
}

export function createOffsetClock(startOffsetMs = 0): OffsetClock {
  let offset = startOffsetMs;
  const listeners = new Set<() => void>();
  return {
    now: () => new Date(systemClock.now().getTime() + offset),
    offsetMs: () => offset,
    moveTo(offsetMs) {
      if (!(offsetMs > offset)) return;
      offset = offsetMs;
      for (const listener of listeners) listener();
    },
    onJump(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
