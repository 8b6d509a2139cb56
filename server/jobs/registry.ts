import { hostname } from "node:os";
import type { AppContext } from "../context";
import { jobLockName, runExclusively } from "./exclusive";
import { recordJobRun } from "./runs";

/**
 * Decision 0480: the one way to run periodic work. Every job is one entry (server/jobs/jobs.ts)
 * with its name, its interval and where it runs; server/http/app.ts starts the registry and
 * stops it, and nothing else under server/ runs a periodic timer (server/jobs/timers.test.ts).
 *
 * Jobs only perform side effects (mail, notify, refund, delete what is expired). What a user sees
 * change with time — a listing's 'Still available?', a code's expiry, an offer's or a suspension's
 * end — is a timestamp compared with `ctx.clock` when read, never a flag a job flips.
 */

/** What the registry needs of the app's context; a job's run gets the whole of it. */
export type JobContext = Pick<AppContext, "database" | "db" | "log" | "clock">;

export interface Job<C extends JobContext = AppContext> {
  /** kebab-case; names the job's lock (decision 0291), its runs (job_runs) and its log lines. */
  name: string;
  /** How often each process starts a run (or tries to, for a one-process job). */
  everyMs: number;
  /**
   * 'one-process': one run at a time across every process on the database, through the job's
   * advisory lock (server/jobs/exclusive.ts); a process that finds it taken skips the tick.
   * 'every-process': each process runs its own (work shared out by the rows themselves, such as
   * the outbox's FOR UPDATE SKIP LOCKED).
   */
  runsIn: "one-process" | "every-process";
  /** The first run this long after start (default: at once). */
  firstRunAfterMs?: number;
  /**
   * One run. Return `{ more: true }` when there is more to do at once (a full batch): the run goes
   * on without waiting for the timer. A long run asks `stopping()` between its steps.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a run that returns nothing is a plain async function.
  run(ctx: C, stopping: () => boolean): Promise<void | { more: boolean }>;
}

/** What a run the operator asked for came to (decision 0551). */
export type RunNowResult =
  | { ran: true; outcome: "succeeded" | "failed"; error: string | null; startedAt: Date }
  /** 'running': a run of it is under way here, or (one-process jobs) in another process; 'stopped': shutting down. */
  | { ran: false; reason: "running" | "stopped" };

/** A job as the operator console lists it (decision 0551). */
export type JobDefinition = Pick<Job, "name" | "everyMs" | "runsIn">;

export interface JobRegistry {
  /** Runs the job now (or right after its run under way in this process). */
  wake(name: string): void;
  /**
   * Decision 0551: one run of the job now, through the same recorded path as its timer's (a
   * job_runs row), awaited; refused, not queued, while a run of it is under way.
   */
  runNow(name: string): Promise<RunNowResult>;
  /** Whether a run of the job is under way in this process. */
  isRunning(name: string): boolean;
  /** The jobs this registry runs, in their order. */
  readonly jobs: readonly JobDefinition[];
  /** Runs every job now: what a jump of the clock made due runs at once (TEST_CLOCK=1). */
  wakeAll(): void;
  /** Stops the timers and waits for the runs under way in this process. */
  stop(): Promise<void>;
}

/** This process, as job_runs names it. */
export const PROCESS_LABEL = `${hostname()}:${process.pid}`;

/**
 * Starts every job's timer in this process: a first run at once (or after `firstRunAfterMs`),
 * then one every `everyMs`, never two of one job at once in one process. A wake during a run
 * runs it once more right after (what woke it may have come after the run read its work). Each
 * run is recorded in job_runs (start, end, error); a run that throws is logged and recorded, and
 * the next tick runs the job again. The timers do not keep the process alive.
 */
export function startJobs<C extends JobContext>(ctx: C, jobs: readonly Job<C>[]): JobRegistry {
  let stopped = false;
  const stopping = () => stopped;
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  const wakes = new Map<string, () => void>();

  /** One run, recorded; never throws. */
  const runRecorded = async (job: Job<C>): Promise<RunNowResult> => {
    const startedAt = ctx.clock.now();
    let error: unknown = null;
    try {
      for (;;) {
        const result = await job.run(ctx, stopping);
        if (stopped || !result?.more) break;
      }
    } catch (thrown) {
      error = thrown;
      ctx.log.error({ err: thrown, job: job.name }, "job run failed");
    }
    let message: string | null = null;
    try {
      message = await recordJobRun(ctx, { job: job.name, process: PROCESS_LABEL, startedAt, error });
    } catch (recordError) {
      if (!stopped) ctx.log.warn({ err: recordError, job: job.name }, "job run could not be recorded");
    }
    const failed = error !== null && error !== undefined;
    return { ran: true, outcome: failed ? "failed" : "succeeded", error: failed ? message : null, startedAt };
  };

  const runOnce = async (job: Job<C>): Promise<RunNowResult> => {
    if (job.runsIn === "every-process") return runRecorded(job);
    try {
      // Skipped (ran: false) where another process holds the job's lock: not a run of this one.
      const exclusive = await runExclusively(ctx, jobLockName(job.name), () => runRecorded(job));
      return exclusive.ran ? exclusive.value : { ran: false, reason: "running" };
    } catch (error) {
      // Taking the lock failed (the database is away): the next tick tries again.
      ctx.log.error({ err: error, job: job.name }, "job could not take its lock");
      throw error;
    }
  };
  const runNows = new Map<string, () => Promise<RunNowResult>>();
  const busy = new Map<string, () => boolean>();

  for (const job of jobs) {
    if (wakes.has(job.name)) throw new Error(`two jobs named ${job.name}`);
    let current: Promise<void> | null = null;
    let again = false;
    const wake = () => {
      if (stopped) return;
      if (current) {
        again = true;
        return;
      }
      current = (async () => {
        do {
          again = false;
          await runOnce(job).catch(() => undefined);
        } while (again && !stopped);
      })();
      const settled = current.finally(() => {
        current = null;
        running.delete(settled);
      });
      running.add(settled);
    };
    wakes.set(job.name, wake);
    busy.set(job.name, () => current !== null);
    runNows.set(job.name, async () => {
      if (stopped) return { ran: false, reason: "stopped" };
      if (current) return { ran: false, reason: "running" };
      const work = runOnce(job);
      current = work.then(
        () => undefined,
        () => undefined,
      );
      const settled = current.finally(() => {
        current = null;
        running.delete(settled);
      });
      running.add(settled);
      try {
        return await work;
      } finally {
        await settled;
        // A wake that came during this run runs the job once more, as it would after a timer's run.
        if (again) {
          again = false;
          wake();
        }
      }
    });
    timers.push(setInterval(wake, job.everyMs));
    if (job.firstRunAfterMs) timers.push(setTimeout(wake, job.firstRunAfterMs));
    else wake();
  }
  for (const timer of timers) timer.unref();
  const stopListening = ctx.clock.onJump?.(() => {
    for (const wake of wakes.values()) wake();
  });

  return {
    jobs: jobs.map((job) => ({ name: job.name, everyMs: job.everyMs, runsIn: job.runsIn })),
    async runNow(name) {
      const runNow = runNows.get(name);
      if (!runNow) throw new Error(`no job named ${name}`);
      return runNow();
    },
    isRunning(name) {
      return busy.get(name)?.() ?? false;
    },
    wake(name) {
      const wake = wakes.get(name);
      if (!wake) throw new Error(`no job named ${name}`);
      wake();
    },
    wakeAll() {
      for (const wake of wakes.values()) wake();
    },
    async stop() {
      stopped = true;
      stopListening?.();
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running);
    },
  };
}
