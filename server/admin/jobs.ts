import { sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { APP_JOBS } from "../jobs/jobs";
import type { JobDefinition, RunNowResult } from "../jobs/registry";
import { appendModerationLog } from "../staff/moderation-log";
import { requireSiteAdmin } from "../staff/roles";
import { parseInput } from "../validation";
import {
  CONSOLE_MESSAGES,
  ConsoleError,
  invalidConsoleInput,
  type RunJobInput,
  runJobSchema,
} from "./console.shared";
import { stalledAfterMs } from "./problems";

/**
 * Decision 0552: the console's Jobs page (/admin/jobs): each periodic job of the registry with its
 * interval, last start, last success, last error and next run, and 'Run now'.
 */

export type JobsContext = Pick<AppContext, "db" | "clock" | "jobs">;

export interface JobStatus {
  name: string;
  everyMs: number;
  runsIn: JobDefinition["runsIn"];
  lastStart: Date | null;
  lastOutcome: "succeeded" | "failed" | null;
  lastSuccess: Date | null;
  lastError: { at: Date; message: string } | null;
  /** Last start plus the interval; null: due now (never ran, or late). */
  nextRun: Date | null;
  /** A run of it is under way in this process. */
  running: boolean;
  /** No success in twice its interval (decision 0551's problem). */
  stalled: boolean;
}

interface JobRow {
  name: string;
  last_start: number | null;
  last_outcome: "succeeded" | "failed" | null;
  last_success: number | null;
  error_at: number | null;
  error: string | null;
}

/**
 * Each job's latest run, latest success and latest failure, each a short walk of
 * job_runs_job_started_idx (the failure's walk is bounded by the week runs are kept).
 */
async function jobRows(db: Queryable, jobs: readonly JobDefinition[]): Promise<JobRow[]> {
  if (jobs.length === 0) return [];
  const names = sql.join(
    jobs.map((job) => sql`(${job.name})`),
    sql`, `,
  );
  const epoch = (column: string) => sql.raw(`(extract(epoch from r.${column}) * 1000)::float8`);
  const result = await db.execute(sql`
    select j.name, last.started as last_start, last.outcome as last_outcome,
      (select ${epoch("finished_at")} from job_runs r
        where r.job = j.name and r.outcome = 'succeeded' order by r.started_at desc nulls last limit 1) as last_success,
      failure.at as error_at, failure.error
    from (values ${names}) as j(name)
    left join lateral (select ${epoch("started_at")} as started, r.outcome from job_runs r
      where r.job = j.name order by r.started_at desc nulls last limit 1) last on true
    left join lateral (select ${epoch("finished_at")} as at, r.error from job_runs r
      where r.job = j.name and r.outcome = 'failed' order by r.started_at desc nulls last limit 1) failure on true`);
  return (result as unknown as { rows: JobRow[] }).rows;
}

const dateOf = (ms: number | null) => (ms === null ? null : new Date(Number(ms)));

/** The jobs of this process's registry, or the app's list where none runs. */
function registryJobs(ctx: JobsContext): readonly JobDefinition[] {
  return ctx.jobs?.jobs ?? APP_JOBS;
}

/** Decision 0552: /admin/jobs, site admins only (404 for anyone else). */
export async function getJobsPage(ctx: JobsContext, viewer: Pick<Viewer, "id"> | null): Promise<JobStatus[]> {
  await requireSiteAdmin(ctx, viewer);
  const jobs = registryJobs(ctx);
  const rows = await jobRows(ctx.db, jobs);
  const now = ctx.clock.now().getTime();
  return jobs.map((job) => {
    const row = rows.find((candidate) => candidate.name === job.name);
    const lastStart = dateOf(row?.last_start ?? null);
    const lastSuccess = dateOf(row?.last_success ?? null);
    const next = lastStart ? lastStart.getTime() + job.everyMs : null;
    return {
      name: job.name,
      everyMs: job.everyMs,
      runsIn: job.runsIn,
      lastStart,
      lastOutcome: row?.last_outcome ?? null,
      lastSuccess,
      lastError:
        row?.error_at != null ? { at: new Date(Number(row.error_at)), message: row.error ?? "" } : null,
      nextRun: next !== null && next > now ? new Date(next) : null,
      running: ctx.jobs?.isRunning(job.name) ?? false,
      stalled: lastStart !== null && now - (lastSuccess?.getTime() ?? 0) > stalledAfterMs(job),
    };
  });
}

/**
 * Decision 0552: 'Run now' — the job's function once, in this process, through the registry's own
 * path (a job_runs row like any run), awaited; refused while a run of it is under way here or, for
 * a one-process job, anywhere. The run is logged with its outcome, the site admin as its actor.
 */
export async function runJobNow(
  ctx: JobsContext,
  viewer: Pick<Viewer, "id"> | null,
  input: RunJobInput,
): Promise<Extract<RunNowResult, { ran: true }> & { job: string }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const { job } = parseInput(runJobSchema, input, invalidConsoleInput);
  if (!registryJobs(ctx).some((candidate) => candidate.name === job)) {
    throw new ConsoleError("unknown-job", CONSOLE_MESSAGES.unknownJob);
  }
  if (!ctx.jobs) throw new ConsoleError("jobs-unavailable", CONSOLE_MESSAGES.jobsNotRunning);
  const result = await ctx.jobs.runNow(job);
  if (!result.ran) {
    throw result.reason === "running"
      ? new ConsoleError("job-running", CONSOLE_MESSAGES.jobRunning)
      : new ConsoleError("jobs-unavailable", CONSOLE_MESSAGES.jobsStopped);
  }
  await appendModerationLog(ctx.db, {
    campusId: null,
    actorId: admin.id,
    source: "staff",
    actorRole: "site_admin",
    action: "run_job",
    targetKind: "job",
    targetId: job,
    targetUserId: null,
    details: { outcome: result.outcome, ...(result.error ? { error: result.error } : {}) },
    at: ctx.clock.now(),
  });
  return { ...result, job };
}
