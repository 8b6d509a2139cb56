import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { jobRuns, moderationLog } from "../db/schema";
import { APP_JOBS } from "../jobs/jobs";
import { type JobRegistry, startJobs } from "../jobs/registry";
import { getJobsPage, runJobNow } from "./jobs";

// Decision 0552: the Jobs page and 'Run now', on PGlite and on PostgreSQL in CI.

const MINUTE = 60_000;

let t: TestContext;
let admin: TestMember;
let student: TestMember;
let registry: JobRegistry;
let calls = 0;
let release: (() => void) | null = null;
beforeAll(async () => {
  t = await createTestContext();
  admin = await createSiteAdmin(t);
  student = await createTestMember(t);
  // Jobs of the test's own: their timers wait an hour, so only 'Run now' runs them.
  registry = startJobs(t.ctx, [
    {
      name: "test-sweep",
      runsIn: "one-process",
      everyMs: MINUTE,
      firstRunAfterMs: 3_600_000,
      run: async () => {
        calls += 1;
        if (calls === 2) throw new Error("the sweep failed");
        if (calls === 3) await new Promise<void>((resolve) => (release = resolve));
      },
    },
    {
      name: "test-idle",
      runsIn: "every-process",
      everyMs: 3_600_000,
      firstRunAfterMs: 3_600_000,
      run: async () => {},
    },
  ]);
});
afterAll(async () => {
  await registry?.stop();
  await t?.close();
});

const ctx = () => ({ ...t.ctx, jobs: registry });

describe("the Jobs page (decision 0552)", () => {
  it("is the site admins': a student and a campus moderator get the 404, for the page and for Run now", async () => {
    const moderator = await createModerator(t, "ou");
    for (const viewer of [student.viewer, moderator.viewer, null]) {
      await expect(getJobsPage(ctx(), viewer)).rejects.toMatchObject({ status: 404 });
      await expect(runJobNow(ctx(), viewer, { job: "test-sweep" })).rejects.toMatchObject({ status: 404 });
    }
    expect(calls).toBe(0);
  });

  it("lists each job never run as due, then Run now records a run, its success, and logs it", async () => {
    let page = await getJobsPage(ctx(), admin.viewer);
    expect(page.map((job) => job.name)).toEqual(["test-sweep", "test-idle"]);
    expect(page[0]).toMatchObject({
      everyMs: MINUTE,
      lastStart: null,
      lastSuccess: null,
      lastError: null,
      nextRun: null,
      running: false,
      stalled: false,
    });

    const started = t.clock.now();
    expect(await runJobNow(ctx(), admin.viewer, { job: "test-sweep" })).toMatchObject({
      job: "test-sweep",
      ran: true,
      outcome: "succeeded",
    });
    page = await getJobsPage(ctx(), admin.viewer);
    expect(page[0]?.lastStart).toEqual(started);
    expect(page[0]?.lastSuccess).toEqual(started);
    // Next run: the last start plus the interval, then 'due' once that has passed.
    expect(page[0]?.nextRun).toEqual(new Date(started.getTime() + MINUTE));
    const [logged] = await t.ctx.db.select().from(moderationLog).where(eq(moderationLog.action, "run_job"));
    expect(logged).toMatchObject({
      actorId: admin.id,
      actorRole: "site_admin",
      source: "staff",
      campusId: null,
      targetKind: "job",
      targetId: "test-sweep",
      details: { outcome: "succeeded" },
    });

    t.clock.advance(2 * MINUTE);
    expect(await runJobNow(ctx(), admin.viewer, { job: "test-sweep" })).toMatchObject({ outcome: "failed" });
    page = await getJobsPage(ctx(), admin.viewer);
    expect(page[0]).toMatchObject({
      lastOutcome: "failed",
      lastSuccess: started,
      lastError: { at: t.clock.now(), message: "Error: the sweep failed" },
      stalled: false,
    });
    t.clock.advance(2 * MINUTE);
    page = await getJobsPage(ctx(), admin.viewer);
    expect(page[0]).toMatchObject({ nextRun: null, stalled: true });
  });

  it("refuses politely while a run of the job is under way, and names only the registry's jobs", async () => {
    const under = runJobNow(ctx(), admin.viewer, { job: "test-sweep" });
    while (!release) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await getJobsPage(ctx(), admin.viewer))[0]?.running).toBe(true);
    await expect(runJobNow(ctx(), admin.viewer, { job: "test-sweep" })).rejects.toMatchObject({
      code: "job-running",
      status: 409,
      message: "A run of this job is under way. Its result shows here when it ends.",
    });
    (release as () => void)();
    await expect(under).resolves.toMatchObject({ outcome: "succeeded" });
    await expect(runJobNow(ctx(), admin.viewer, { job: "no-such-job" })).rejects.toMatchObject({
      code: "unknown-job",
      status: 404,
    });
    await expect(runJobNow(ctx(), admin.viewer, { job: "<script>" })).rejects.toMatchObject({ status: 400 });
    // Where no registry runs (a command), the app's jobs are listed and none can run.
    expect((await getJobsPage(t.ctx, admin.viewer)).map((job) => job.name)).toEqual(
      APP_JOBS.map((job) => job.name),
    );
    await expect(runJobNow(t.ctx, admin.viewer, { job: "expire-ads" })).rejects.toMatchObject({
      code: "jobs-unavailable",
    });
    const runs = await t.ctx.db.select().from(jobRuns).where(eq(jobRuns.job, "test-sweep"));
    expect(runs).toHaveLength(3);
  });
});
