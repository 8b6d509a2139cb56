import { sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { jobRuns } from "../db/schema";

/** Decision 0480: the runs kept per job (older ones go with the prune-job-runs job). */
export const JOB_RUNS_KEPT = 100;

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

/** Records one finished run of a job: failed when `error` is not null. */
export async function recordJobRun(
  ctx: Pick<AppContext, "db" | "clock">,
  run: { job: string; process: string; startedAt: Date; error: unknown },
): Promise<void> {
  const failed = run.error !== null && run.error !== undefined;
  await ctx.db.insert(jobRuns).values({
    job: run.job,
    process: run.process,
    startedAt: run.startedAt,
    finishedAt: ctx.clock.now(),
    outcome: failed ? "failed" : "succeeded",
    error: failed ? errorText(run.error).slice(0, ERROR_CHARS) : null,
  });
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

/** Deletes every job's runs beyond its latest `keep`; returns how many. */
export async function pruneJobRuns(ctx: Pick<AppContext, "db">, keep = JOB_RUNS_KEPT): Promise<number> {
  const result = await ctx.db.execute(sql`
    with ranked as (
      select id, row_number() over (partition by job order by started_at desc) as nth from job_runs
    ), gone as (
      delete from job_runs r using ranked where r.id = ranked.id and ranked.nth > ${keep} returning 1
    )
    select count(*)::int as n from gone`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}
