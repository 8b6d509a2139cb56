import { describe, expect, it } from "vitest";
import {
  aboveConnectionShare,
  fairConnectionShare,
  resolveWorkerCount,
  WORKER_SEMI_SPACE_MB,
  workerExecArgv,
} from "./cluster.js";

describe("WORKERS (decision 0290)", () => {
  it("defaults to one process on the embedded database and one per core on PostgreSQL", () => {
    expect(resolveWorkerCount({}, 8)).toBe(1);
    expect(resolveWorkerCount({ WORKERS: "" }, 8)).toBe(1);
    expect(resolveWorkerCount({ DATABASE_URL: "postgres://db/app" }, 8)).toBe(8);
    expect(resolveWorkerCount({ DATABASE_URL: "postgres://db/app", WORKERS: "3" }, 8)).toBe(3);
    expect(resolveWorkerCount({ WORKERS: "1" }, 8)).toBe(1);
  });

  it("refuses more than one process on the embedded database, and anything but a whole number", () => {
    expect(() => resolveWorkerCount({ WORKERS: "2" }, 8)).toThrow(
      "WORKERS=2: the embedded database (no DATABASE_URL) can be opened by one process only. " +
        "Set DATABASE_URL to a PostgreSQL server to run several processes, or leave WORKERS unset.",
    );
    for (const value of ["0", "-1", "1.5", "two"]) {
      expect(() => resolveWorkerCount({ DATABASE_URL: "postgres://db/app", WORKERS: value }, 8)).toThrow(
        /WORKERS: expected a whole number of at least 1/,
      );
    }
  });
});

describe("connections spread over the processes (decision 0355)", () => {
  it("gives each worker an even share of all the open connections, rounded up, and at least one", () => {
    expect(fairConnectionShare([49, 1])).toBe(25);
    expect(fairConnectionShare([25, 25])).toBe(25);
    expect(fairConnectionShare([26, 25])).toBe(26);
    expect(fairConnectionShare([3, 0, 0])).toBe(1);
    // An idle app: the first client of either worker keeps its connection.
    expect(fairConnectionShare([0, 0])).toBe(1);
  });

  it("has a worker close connections only while it holds more than its share", () => {
    // 50 connections, all on one worker: it closes 25 of them, one after each answer.
    expect(aboveConnectionShare({ open: 50, closing: 24, share: 25 })).toBe(true);
    expect(aboveConnectionShare({ open: 50, closing: 25, share: 25 })).toBe(false);
    // Balanced, even with an odd total: nobody closes anything.
    expect(aboveConnectionShare({ open: 25, closing: 0, share: 25 })).toBe(false);
    expect(aboveConnectionShare({ open: 26, closing: 0, share: 26 })).toBe(false);
    expect(aboveConnectionShare({ open: 26, closing: 0, share: 25 })).toBe(true);
  });

  it("sets no limit before any worker has reported", () => {
    expect(fairConnectionShare([])).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("workerExecArgv (decision 0420)", () => {
  it("gives each worker a larger young generation, after the primary's own arguments", () => {
    expect(workerExecArgv(["--enable-source-maps"], undefined)).toEqual([
      "--enable-source-maps",
      `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`,
    ]);
    expect(WORKER_SEMI_SPACE_MB).toBe(32);
  });

  it("leaves the size to the operator who gave one, in the arguments or NODE_OPTIONS", () => {
    expect(workerExecArgv(["--max-semi-space-size=8"], undefined)).toEqual(["--max-semi-space-size=8"]);
    expect(workerExecArgv(["--max_semi_space_size", "64"], "")).toEqual(["--max_semi_space_size", "64"]);
    expect(workerExecArgv([], "--max-old-space-size=512 --max-semi-space-size=16")).toEqual([]);
    expect(workerExecArgv([], "--max-semi-space-sizes")).toEqual([
      `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`,
    ]);
  });
});
