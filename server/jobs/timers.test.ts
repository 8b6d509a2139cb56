import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_DIR, serverSourceFiles } from "../../tests/support/source-files";

/**
 * Decision 0480: periodic work runs from the job registry (server/jobs/registry.ts) and nowhere
 * else. Every other timer under server/ is listed here with why it is not a job; a new timer
 * fails this test until it is either a job (server/jobs/jobs.ts) or listed with its reason.
 */

const REGISTRY = "jobs/registry.ts";

const NOT_JOBS: Record<string, { setInterval?: number; setTimeout?: number; why: string }> = {
  "http/endpoints/event-stream.ts": {
    setInterval: 1,
    why: "the open streams' own heartbeat comment, so proxies keep them; stops with the last stream",
  },
  "http/middleware/render-limit.ts": {
    setTimeout: 1,
    why: "how long one queued request may wait for a render slot",
  },
  "payments/payments.ts": {
    setTimeout: 1,
    why: "how long the console waits for one page of Stripe's balance transactions (decision 0565)",
  },
  "http/endpoints/health.ts": { setTimeout: 1, why: "one health probe's time limit" },
  "realtime/hub.ts": { setTimeout: 1, why: "a failed read's one retry" },
  "realtime/listener.ts": {
    setInterval: 1,
    setTimeout: 1,
    why: "the listening connection's keep-alive ping and its reconnect back-off",
  },
  "realtime/presence.ts": {
    setInterval: 1,
    setTimeout: 1,
    why: "this process's liveness beat while it holds live streams (decision 0331), and a user's linger after their last stream",
  },
};

function count(text: string, name: string): number {
  return text.match(new RegExp(`\\b${name}\\(`, "g"))?.length ?? 0;
}

describe("one way to run background work", () => {
  it("no timer under server/ outside the job registry but the listed ones", () => {
    const found: Record<string, { setInterval?: number; setTimeout?: number }> = {};
    for (const file of serverSourceFiles()) {
      if (file === REGISTRY) continue;
      const text = readFileSync(join(SERVER_DIR, file), "utf8");
      const timers = { setInterval: count(text, "setInterval"), setTimeout: count(text, "setTimeout") };
      const immediate = count(text, "setImmediate");
      if (timers.setInterval + timers.setTimeout + immediate === 0) continue;
      found[file] = {
        ...(timers.setInterval ? { setInterval: timers.setInterval } : {}),
        ...(timers.setTimeout ? { setTimeout: timers.setTimeout } : {}),
        ...(immediate ? { setImmediate: immediate } : {}),
      };
    }
    const listed = Object.fromEntries(
      Object.entries(NOT_JOBS).map(([file, { why: _why, ...timers }]) => [file, timers]),
    );
    expect(
      found,
      "a periodic job belongs in server/jobs/jobs.ts; any other timer is listed here with why",
    ).toEqual(listed);
  });
});
