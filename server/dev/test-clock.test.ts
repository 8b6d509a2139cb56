import type { AddressInfo } from "node:net";
import express from "express";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { OffsetClock } from "../clock";
import { type DatabaseHandle, wrapPool } from "../db/client";
import { createLogger } from "../logger";
import { createRealtimeHub, type RealtimeHub } from "../realtime/hub";
import { mountTestClock, startTestClock, TEST_CLOCK_PATH } from "./test-clock";

// Decision 0481 (docs/contract.md 'Test clock'): GET and POST /dev/clock, and one clock in every
// process. On PostgreSQL (CI) the second process is a pool and a listening connection of its own.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

const DAY_S = 86_400;

/** One app process's part of the test clock: its hub (listening connection) and its clock. */
async function clockProcess(
  database: DatabaseHandle,
): Promise<{ clock: OffsetClock; realtime: RealtimeHub; close(): Promise<void> }> {
  const log = createLogger("silent");
  const realtime = createRealtimeHub({ database, log, maxStreams: 10, maxStreamsPerUser: 10 });
  const clock = await startTestClock({ database, realtime, log });
  return { clock, realtime, close: () => realtime.close() };
}

/** Another process's database handle: a pool of its own on PostgreSQL, the same handle on PGlite. */
function otherDatabase(): { database: DatabaseHandle; close(): Promise<void> } {
  const pool = t.ctx.database.pool;
  if (!pool) return { database: t.ctx.database, close: async () => {} };
  const database = wrapPool(new pg.Pool({ connectionString: pool.options.connectionString, max: 2 }));
  return { database, close: () => database.close() };
}

async function serve(testClock: OffsetClock | null) {
  const app = express();
  mountTestClock(app, { ctx: { ...t.ctx, clock: testClock ?? t.ctx.clock }, testClock });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${TEST_CLOCK_PATH}`;
  return { base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const advance = (base: string, body: BodyInit) => fetch(base, { method: "POST", body });

describe("the test clock (decision 0481)", () => {
  it("moves every process's clock, and a process started later reads where it is", async () => {
    const other = otherDatabase();
    const a = await clockProcess(t.ctx.database);
    const b = await clockProcess(other.database);
    const server = await serve(a.clock);
    try {
      const before = Date.parse(((await (await fetch(server.base)).json()) as { now: string }).now);
      const moved = await advance(server.base, new URLSearchParams({ advance: String(61 * DAY_S) }));
      expect(moved.status).toBe(200);
      const { now } = (await moved.json()) as { now: string };
      expect(Date.parse(now) - before).toBeGreaterThanOrEqual(61 * DAY_S * 1000);
      // The other process hears of it at once (NOTIFY); well within the contract's 5 seconds.
      const deadline = performance.now() + 5_000;
      while (b.clock.offsetMs() !== 61 * DAY_S * 1000 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(b.clock.offsetMs()).toBe(61 * DAY_S * 1000);

      // Moves add up; multipart forms count too.
      const form = new FormData();
      form.set("advance", String(DAY_S));
      expect((await advance(server.base, form)).status).toBe(200);
      expect(a.clock.offsetMs()).toBe(62 * DAY_S * 1000);

      const later = await clockProcess(t.ctx.database);
      expect(later.clock.offsetMs()).toBe(62 * DAY_S * 1000);
      await later.close();
    } finally {
      await server.close();
      await a.close();
      await b.close();
      await other.close();
    }
  });

  it("answers 400 to anything but whole seconds from 0 to a year", async () => {
    const a = await clockProcess(t.ctx.database);
    const server = await serve(a.clock);
    try {
      for (const value of ["-1", "1.5", "31536001", "", "ten", "1e3", " 5"]) {
        const response = await advance(server.base, new URLSearchParams({ advance: value }));
        expect(response.status, value).toBe(400);
      }
      expect((await advance(server.base, new URLSearchParams({ other: "5" }))).status).toBe(400);
      expect((await fetch(server.base, { method: "POST" })).status).toBe(400);
      const offset = a.clock.offsetMs();
      expect((await advance(server.base, new URLSearchParams({ advance: "0" }))).status).toBe(200);
      expect((await advance(server.base, new URLSearchParams({ advance: "31536000" }))).status).toBe(200);
      expect(a.clock.offsetMs()).toBe(offset + 31_536_000_000);
    } finally {
      await server.close();
      await a.close();
    }
  });

  it("answers 404 to both without TEST_CLOCK=1", async () => {
    const server = await serve(null);
    try {
      expect((await fetch(server.base)).status).toBe(404);
      expect((await advance(server.base, new URLSearchParams({ advance: "60" }))).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
