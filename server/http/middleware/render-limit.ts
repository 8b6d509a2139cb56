import type { NextFunction, Request, Response } from "express";

/**
 * Decision 0107: a bound on the pages one process renders at once. A server render
 * holds its loader's rows and React's output in memory and blocks the event loop
 * while it runs; without a bound, a burst of slow pages queues without end, the
 * heap grows until the process dies, and `/healthz` and cached pages wait behind
 * them. With it, at most `maxInFlight` renders run, at most `maxQueued` wait
 * (each for at most `maxWaitMs`), and anything beyond is answered at once with
 * 503 and `Retry-After`, which browsers, proxies and load balancers understand.
 *
 * Only GET and HEAD are limited: writes carry a student's input, are bounded by
 * their own body caps and rate limits, and must not be dropped for load.
 */
export interface RenderLimitOptions {
  maxInFlight: number;
  maxQueued: number;
  maxWaitMs: number;
  /** Seconds a refused client is told to wait. */
  retryAfterSeconds: number;
}

/**
 * Decision 0107: renders are CPU-bound and run on one thread, so more than a few at once only
 * adds memory and latency (4 still overlap PostgreSQL's round trips). Waiting is cheap (a
 * socket and a request object), so the queue is long; a waiting client holds its connection
 * rather than coming straight back for another refusal.
 */
export const RENDER_LIMITS: RenderLimitOptions = {
  maxInFlight: 4,
  maxQueued: 256,
  maxWaitMs: 3_000,
  retryAfterSeconds: 2,
};

export const BUSY_MESSAGE = "Campus Buy Sell is busy right now. Please try again in a moment.";

export interface RenderLimiter {
  middleware(req: Request, res: Response, next: NextFunction): void;
  /** Renders running and waiting now (for tests and the bench). */
  stats(): { inFlight: number; queued: number; refused: number };
}

export function createRenderLimiter(options: RenderLimitOptions = RENDER_LIMITS): RenderLimiter {
  let inFlight = 0;
  let refused = 0;
  const waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = [];

  const release = () => {
    inFlight -= 1;
    const next = waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.start();
    }
  };

  const refuse = (res: Response) => {
    refused += 1;
    if (res.headersSent || res.writableEnded) return;
    res
      .status(503)
      .set("Retry-After", String(options.retryAfterSeconds))
      .set("Cache-Control", "no-store")
      .type("text/plain")
      .send(BUSY_MESSAGE);
  };

  return {
    middleware(req, res, next) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        next();
        return;
      }
      const start = () => {
        inFlight += 1;
        let released = false;
        const done = () => {
          if (released) return;
          released = true;
          release();
        };
        // A client that left while the middleware ahead of this one was still working (a session
        // lookup, the page cache's check) has already had its 'close': no event would ever give
        // its place back, and nobody would read the page.
        if (res.writableEnded || req.socket.destroyed) {
          done();
          return;
        }
        // 'close' also fires when the client goes away before the answer ends.
        res.once("finish", done);
        res.once("close", done);
        next();
      };
      if (inFlight < options.maxInFlight) {
        start();
        return;
      }
      if (waiting.length >= options.maxQueued) {
        refuse(res);
        return;
      }
      const entry = {
        start,
        timer: setTimeout(() => {
          const index = waiting.indexOf(entry);
          if (index !== -1) waiting.splice(index, 1);
          refuse(res);
        }, options.maxWaitMs),
      };
      waiting.push(entry);
      // A client that leaves while waiting gives its place up.
      res.once("close", () => {
        const index = waiting.indexOf(entry);
        if (index === -1) return;
        waiting.splice(index, 1);
        clearTimeout(entry.timer);
      });
    },
    stats: () => ({ inFlight, queued: waiting.length, refused }),
  };
}
