import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_DIR, serverSourceFiles } from "../tests/support/source-files";
import { createOffsetClock } from "./clock";

/**
 * Decision 0481: domain code reads the time only from `ctx.clock`, so tests and TEST_CLOCK=1 can
 * move it. The machine's clock is read in server/clock.ts alone; elapsed time (a cache's age, a
 * probe's) is `performance.now()`, which no moved clock should change.
 */

const CLOCK_MODULE = "clock.ts";

describe("one clock", () => {
  it("no file under server/ but server/clock.ts reads Date.now or new Date()", () => {
    const readers: string[] = [];
    for (const file of serverSourceFiles()) {
      if (file === CLOCK_MODULE) continue;
      const lines = readFileSync(join(SERVER_DIR, file), "utf8").split("\n");
      lines.forEach((line, index) => {
        if (/\bDate\.now\b/.test(line) || /\bnew Date\(\s*\)/.test(line)) {
          readers.push(`server/${file}:${index + 1}: ${line.trim()}`);
        }
      });
    }
    expect(readers, "read ctx.clock.now() (or performance.now() for elapsed time) instead").toEqual([]);
  });

  it("an offset clock only moves forward, and tells its listeners when it does", () => {
    const clock = createOffsetClock();
    let jumps = 0;
    const stop = clock.onJump(() => {
      jumps++;
    });
    const before = clock.now().getTime();
    clock.moveTo(86_400_000);
    expect(clock.now().getTime() - before).toBeGreaterThanOrEqual(86_400_000);
    clock.moveTo(1_000);
    clock.moveTo(86_400_000);
    expect(clock.offsetMs()).toBe(86_400_000);
    expect(jumps).toBe(1);
    stop();
    clock.moveTo(2 * 86_400_000);
    expect(jumps).toBe(1);
  });
});
