import { lt, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { jobRuns } from "../db/schema";

/**
 * Decisions 0480 and 0551: how long runs are kept (older ones go with the prune-job-runs job): a
 * week, so the operator console can tell a job that stopped days ago from one that never ran.
 */
export const JOB_RUNS_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** An error's message as job_runs keeps it: enough to read, bounded. */
const ERROR_CHARS = 2000;

export interface JobRun {
  job: string;
  process: string;
  startedAt: Date;
  finishedAt: Date;
  outcome: "succeeded" | "failed";
  error: string | null;
}

/** Records one finished run of a job: failed when `error` is not null. Returns the error as kept. */
export async function recordJobRun(
  ctx: Pick<AppContext, "db" | "clock">,
  run: { job: string; process: string; startedAt: Date; error: unknown },
): Promise<string | null> {
  const failed = run.error !== null && run.error !== undefined;
  const error = failed ? errorText(run.error).slice(0, ERROR_CHARS) : null;
  await ctx.db.insert(jobRuns).values({
    job: run.job,
    process: run.process,
    startedAt: run.startedAt,
    finishedAt: ctx.clock.now(),
    outcome: failed ? "failed" : "succeeded",
    error,
  });
  return error;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * The latest run of every job that has run, by job name (the operator console's view, decision
 * 0480); served by job_runs_job_started_idx.
 */
export async function latestJobRuns(ctx: Pick<AppContext, "db">): Promise<JobRun[]> {
  return ctx.db
    .selectDistinctOn([jobRuns.job], {
      job: jobRuns.job,
      process: jobRuns.process,
      startedAt: jobRuns.startedAt,
      finishedAt: jobRuns.finishedAt,
      outcome: jobRuns.outcome,
      error: jobRuns.error,
    })
    .from(jobRuns)
    .orderBy(jobRuns.job, sql`${jobRuns.startedAt} desc`);
}

/** Deletes the runs that started more than `keepMs` before the clock's now; returns how many. */
export async function pruneJobRuns(
  ctx: Pick<AppContext, "db" | "clock">,
  keepMs = JOB_RUNS_KEPT_MS,
): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - keepMs);
  const gone = await ctx.db
    .delete(jobRuns)
    .where(lt(jobRuns.startedAt, before))
    .returning({ id: jobRuns.id });
  return gone.length;
}
