import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, pgTable, text } from "drizzle-orm/pg-core";
import * as columns from "./columns";

/**
 * Decision 0480: one row per run of a periodic job (server/jobs/registry.ts), written when the
 * run ends: when it started and ended, in which process, and its error if it failed. Bounded:
 * the prune-job-runs job deletes runs older than a week (JOB_RUNS_KEPT_MS). The operator console reads the
 * latest per job (latestJobRuns).
 */
export const jobRuns = pgTable(
  "job_runs",
  {
    id: columns.id(),
    job: text("job").notNull(),
    /** `{host}:{pid}` of the process that ran it. */
    process: text("process").notNull(),
    startedAt: columns.time("started_at").notNull(),
    finishedAt: columns.time("finished_at").notNull(),
    outcome: text("outcome", { enum: ["succeeded", "failed"] }).notNull(),
    error: text("error"),
  },
  (table) => [index("job_runs_job_started_idx").on(table.job, table.startedAt.desc())],
);

/**
 * Decision 0481: how far the test clock (TEST_CLOCK=1, never in production) has been moved
 * forward, in one row every process reads at start; a move is announced to the others with
 * NOTIFY. Without TEST_CLOCK the table stays empty.
 */
export const testClock = pgTable(
  "test_clock",
  {
    /** Always true: the one row. */
    id: boolean("id").primaryKey().default(true),
    offsetMs: bigint("offset_ms", { mode: "number" }).notNull().default(0),
  },
  (table) => [check("test_clock_one_row", sql`${table.id}`)],
);
