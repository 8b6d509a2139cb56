import { sql } from "drizzle-orm";
import express from "express";
import { createOffsetClock, type OffsetClock } from "../clock";
import type { AppContext } from "../context";
import type { DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";
import { rowsOf } from "../realtime/backlog";
import { TEST_CLOCK_CHANNEL } from "../realtime/events";
import type { RealtimeHub } from "../realtime/hub";

/**
 * Decision 0481 (docs/contract.md 'Test clock'): with TEST_CLOCK=1 (never in production, loadConfig
 * refuses it) the app runs on the machine's clock plus an offset that tests move forward:
 * `POST /dev/clock` with a form field `advance` (whole seconds) adds to the offset in the
 * database (test_clock) and announces it on the realtime hub's listening connection, so every
 * process moves within milliseconds, and a process started later reads it. Each move wakes
 * every job in every process (server/jobs/registry.ts), so what became due runs at once.
 */
export const TEST_CLOCK_PATH = "/dev/clock";

/** A year: the most one move may add. */
export const MAX_ADVANCE_SECONDS = 31_536_000;

/** This process's test clock: the offset from the database, then every move announced. */
export async function startTestClock(deps: {
  database: DatabaseHandle;
  realtime: RealtimeHub;
  log: Logger;
}): Promise<OffsetClock> {
  const clock = createOffsetClock();
  const readOffset = async () => {
    const rows = rowsOf<{ offset_ms: string | number }>(
      await deps.database.db.execute(sql`select offset_ms from test_clock`),
    );
    clock.moveTo(Number(rows[0]?.offset_ms ?? 0));
  };
  // Listening first: a move between the read and LISTEN is announced, not lost.
  await deps.realtime.watchClockMoves((offsetMs) => {
    if (offsetMs !== null) clock.moveTo(offsetMs);
    else
      readOffset().catch((error: unknown) =>
        deps.log.warn({ err: error }, "test clock: could not read the offset again"),
      );
  });
  await readOffset();
  return clock;
}

/**
 * Moves the clock of every process forward by `seconds`: one statement adds to the stored offset
 * and announces the sum at its commit; this process moves at once. Returns the new time.
 */
export async function advanceTestClock(
  deps: { db: AppContext["db"]; clock: OffsetClock },
  seconds: number,
): Promise<Date> {
  const rows = rowsOf<{ offset_ms: string | number }>(
    await deps.db.execute(sql`
      with moved as (
        insert into test_clock (id, offset_ms) values (true, ${seconds * 1000})
        on conflict (id) do update set offset_ms = test_clock.offset_ms + excluded.offset_ms
        returning offset_ms
      )
      select offset_ms, pg_notify(${TEST_CLOCK_CHANNEL}, offset_ms::text) from moved`),
  );
  deps.clock.moveTo(Number(rows[0]?.offset_ms ?? 0));
  return deps.clock.now();
}

/** `advance` as docs/contract.md allows it: whole seconds from 0 to a year, digits only; else null. */
export function parseAdvance(value: FormDataEntryValue | null): number | null {
  if (typeof value !== "string" || !/^\d{1,9}$/.test(value)) return null;
  const seconds = Number(value);
  return seconds <= MAX_ADVANCE_SECONDS ? seconds : null;
}

/**
 * `GET /dev/clock` → `{ now }`; `POST /dev/clock` (form field `advance`) → `{ now }` after the
 * move, or 400. Without TEST_CLOCK=1 (`testClock` null) both answer 404.
 */
export function mountTestClock(
  app: express.Express,
  deps: { ctx: AppContext; testClock: OffsetClock | null },
): void {
  const { ctx, testClock } = deps;
  if (!testClock) {
    app.all(TEST_CLOCK_PATH, (_req, res) => {
      res.status(404).json({ message: "Not Found" });
    });
    return;
  }
  ctx.log.warn("TEST_CLOCK=1: POST /dev/clock moves the app's clock forward (never in production)");
  app.get(TEST_CLOCK_PATH, (_req, res) => {
    res.set("Cache-Control", "no-store").json({ now: ctx.clock.now().toISOString() });
  });
  app.post(TEST_CLOCK_PATH, express.raw({ type: () => true, limit: "8kb" }), async (req, res, next) => {
    try {
      let form: FormData | null = null;
      try {
        // Both form encodings, as the app's forms (urlencoded or multipart).
        form = await new Request("http://localhost/", {
          method: "POST",
          headers: { "content-type": String(req.headers["content-type"] ?? "") },
          body: Buffer.isBuffer(req.body) ? new Uint8Array(req.body) : "",
        }).formData();
      } catch {
        form = null;
      }
      const seconds = parseAdvance(form?.get("advance") ?? null);
      if (seconds === null) {
        res.status(400).json({
          message: `advance: a whole number of seconds from 0 to ${MAX_ADVANCE_SECONDS} is required`,
        });
        return;
      }
      const now = await advanceTestClock({ db: ctx.db, clock: testClock }, seconds);
      res.set("Cache-Control", "no-store").json({ now: now.toISOString() });
    } catch (error) {
      next(error);
    }
  });
}
