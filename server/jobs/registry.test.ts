import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { createOffsetClock } from "../clock";
import { wrapPool } from "../db/client";
import { jobRuns } from "../db/schema";
import { type JobContext, startJobs } from "./registry";
import { latestJobRuns, pruneJobRuns } from "./runs";

// Decision 0480: the one job registry, against the test database (PGlite, or PostgreSQL in CI,
// where the 'other process' is a second pool on the same database).

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds (at most 5 s). */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error("timed out");
    await sleep(10);
  }
}

async function runsOf(job: string) {
  return t.ctx.db.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(jobRuns.startedAt);
}

/** Another process on the same database: a pool of its own on PostgreSQL, the same handle on PGlite. */
function otherProcess(): { ctx: JobContext; close(): Promise<void> } {
  const pool = t.ctx.database.pool;
  if (!pool) return { ctx: t.ctx, close: async () => {} };
  const database = wrapPool(new pg.Pool({ connectionString: pool.options.connectionString, max: 3 }));
  return {
    ctx: { database, db: database.db, log: t.ctx.log, clock: t.ctx.clock },
    close: () => database.close(),
  };
}

describe("the job registry (decision 0480)", () => {
  it("runs a one-process job on its timer, a full run again at once, and never two processes' runs together", async () => {
    const other = otherProcess();
    let inside = 0;
    let overlapped = false;
    let rounds = 0;
    let backlog = 3;
    const run = async () => {
      inside += 1;
      if (inside > 1) overlapped = true;
      rounds += 1;
      await sleep(20);
      inside -= 1;
      backlog = Math.max(0, backlog - 1);
      return { more: backlog > 0 };
    };
    const job = { name: "test-singleton", runsIn: "one-process", everyMs: 30, run } as const;
    const a = startJobs(t.ctx, [job]);
    const b = startJobs(other.ctx, [job]);
    // Under load a round takes longer than its 30 ms: wait for the rounds rather than a fixed time.
    await until(() => rounds > 4);
    a.wakeAll();
    b.wakeAll();
    await a.stop();
    await b.stop();
    await other.close();
    expect(overlapped).toBe(false);
    // The backlog of three went in one go, then the timer kept running rounds.
    expect(rounds).toBeGreaterThan(4);
  });

  it("runs an every-process job in each process at once", async () => {
    const other = otherProcess();
    let inside = 0;
    let most = 0;
    const job = {
      name: "test-everywhere",
      runsIn: "every-process",
      everyMs: 60_000,
      run: async () => {
        inside += 1;
        most = Math.max(most, inside);
        await sleep(100);
        inside -= 1;
      },
    } as const;
    const a = startJobs(t.ctx, [job]);
    const b = startJobs(other.ctx, [job]);
    await until(async () => (await runsOf("test-everywhere")).length === 2);
    await a.stop();
    await b.stop();
    await other.close();
    expect(most).toBe(2);
  });

  it("records each run's start, end and outcome; a failing run is recorded and the job runs again", async () => {
    let calls = 0;
    const jobs = startJobs(t.ctx, [
      {
        name: "test-flaky",
        runsIn: "one-process",
        everyMs: 60_000,
        run: async () => {
          calls += 1;
          if (calls === 1) throw new Error("the provider is down");
        },
      },
      { name: "test-steady", runsIn: "every-process", everyMs: 60_000, run: async () => {} },
    ]);
    await until(async () => (await runsOf("test-flaky")).length === 1);
    jobs.wake("test-flaky");
    await until(async () => (await runsOf("test-flaky")).length === 2);
    await jobs.stop();

    const [failed, succeeded] = await runsOf("test-flaky");
    expect(failed).toMatchObject({ outcome: "failed", error: "Error: the provider is down" });
    expect(succeeded).toMatchObject({ outcome: "succeeded", error: null });
    expect(succeeded?.process).toMatch(/:\d+$/);
    expect(succeeded?.finishedAt.getTime()).toBeGreaterThanOrEqual(succeeded?.startedAt.getTime() ?? 0);

    const latest = await latestJobRuns(t.ctx);
    const byJob = new Map(latest.map((run) => [run.job, run]));
    expect(byJob.get("test-flaky")).toMatchObject({ outcome: "succeeded" });
    expect(byJob.get("test-steady")).toMatchObject({ outcome: "succeeded" });
    expect(latest.filter((run) => run.job === "test-flaky")).toHaveLength(1);
  });

  it("stops: waits for the run under way, then runs nothing more", async () => {
    let runs = 0;
    let finished = false;
    const jobs = startJobs(t.ctx, [
      {
        name: "test-stopping",
        runsIn: "one-process",
        everyMs: 20,
        run: async () => {
          runs += 1;
          await sleep(50);
          finished = true;
        },
      },
    ]);
    await sleep(10);
    await jobs.stop();
    expect(finished).toBe(true);
    const stoppedAt = runs;
    jobs.wakeAll();
    await sleep(100);
    expect(runs).toBe(stoppedAt);
    expect(() => jobs.wake("no-such-job")).toThrow("no job named no-such-job");
  });

  it("runs every job at once when the clock jumps forward (TEST_CLOCK=1)", async () => {
    const clock = createOffsetClock();
    const ran: string[] = [];
    const job = (name: string, runsIn: "one-process" | "every-process") => ({
      name,
      runsIn,
      everyMs: 3_600_000,
      firstRunAfterMs: 3_600_000,
      run: async () => {
        ran.push(name);
      },
    });
    const jobs = startJobs({ ...t.ctx, clock }, [
      job("test-hourly-one", "one-process"),
      job("test-hourly-every", "every-process"),
    ]);
    await sleep(50);
    expect(ran).toEqual([]);
    clock.moveTo(61 * 86_400_000);
    await until(() => ran.length === 2);
    await jobs.stop();
    expect(ran.sort()).toEqual(["test-hourly-every", "test-hourly-one"]);
    // Recorded at the moved clock's time.
    const [run] = await runsOf("test-hourly-one");
    expect(run?.startedAt.getTime()).toBeGreaterThan(t.ctx.clock.now().getTime() + 60 * 86_400_000);
  });

  it("runs a job now through the recorded path, and refuses while a run of it is under way (decision 0551)", async () => {
    let release = () => {};
    let calls = 0;
    const jobs = startJobs(t.ctx, [
      {
        name: "test-run-now",
        runsIn: "one-process",
        everyMs: 3_600_000,
        firstRunAfterMs: 3_600_000,
        run: async () => {
          calls += 1;
          if (calls === 2) throw new Error("the second run fails");
          if (calls === 3) await new Promise<void>((resolve) => (release = resolve));
        },
      },
    ]);
    expect(jobs.jobs).toEqual([{ name: "test-run-now", everyMs: 3_600_000, runsIn: "one-process" }]);
    expect(await jobs.runNow("test-run-now")).toMatchObject({ ran: true, outcome: "succeeded", error: null });
    expect(await jobs.runNow("test-run-now")).toMatchObject({
      ran: true,
      outcome: "failed",
      error: "Error: the second run fails",
    });
    const third = jobs.runNow("test-run-now");
    await until(() => calls === 3);
    expect(jobs.isRunning("test-run-now")).toBe(true);
    expect(await jobs.runNow("test-run-now")).toEqual({ ran: false, reason: "running" });
    release();
    expect(await third).toMatchObject({ ran: true, outcome: "succeeded" });
    expect(jobs.isRunning("test-run-now")).toBe(false);
    expect((await runsOf("test-run-now")).map((run) => run.outcome)).toEqual([
      "succeeded",
      "failed",
      "succeeded",
    ]);
    await jobs.stop();
    expect(await jobs.runNow("test-run-now")).toEqual({ ran: false, reason: "stopped" });
    await expect(jobs.runNow("no-such-job")).rejects.toThrow("no job named no-such-job");
  });

  it("keeps a week of runs by the clock and prunes the older ones (decision 0551)", async () => {
    const now = t.clock.now().getTime();
    const startedAt = (daysAgo: number) => new Date(now - daysAgo * 86_400_000);
    await t.ctx.db.insert(jobRuns).values(
      [8, 7.01, 6.99, 1, 0].map((daysAgo) => ({
        job: "test-pruned",
        process: "host:1",
        startedAt: startedAt(daysAgo),
        finishedAt: startedAt(daysAgo),
        outcome: "succeeded" as const,
      })),
    );
    // Many runs of one day stay: the bound is their age, not their number.
    expect(await pruneJobRuns(t.ctx)).toBeGreaterThanOrEqual(2);
    expect((await runsOf("test-pruned")).map((run) => run.startedAt)).toEqual([
      startedAt(6.99),
      startedAt(1),
      startedAt(0),
    ]);
    // A week later by the clock, those go too.
    t.clock.advance(7 * 86_400_000 + 1);
    await pruneJobRuns(t.ctx);
    expect(await runsOf("test-pruned")).toEqual([]);
  });
});
