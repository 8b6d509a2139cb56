import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createModerator, createSiteAdmin, openTestItem } from "../../tests/support/moderation";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { migrationsFolder } from "../db/migrate";
import {
  ads,
  backups,
  checkoutSessions,
  deals,
  jobRuns,
  mailOutbox,
  paymentEvents,
  payments,
  posts,
  user,
} from "../db/schema";
import { CLAIM_LEASE_MS } from "../mail/outbox";
import { getDashboard } from "./dashboard";
import type { ProblemKind } from "./problems";

// Decision 0551: each problem of the dashboard detected from seeded rows and the clock, absent
// and then present; the campus counts; site admins only. On PGlite, and on PostgreSQL in CI.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let t: TestContext;
let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  t = await createTestContext();
  admin = await createSiteAdmin(t, { fullName: "Sam Admin" });
  member = await createTestMember(t, { fullName: "Jo Student" });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  for (const table of [mailOutbox, jobRuns, paymentEvents, checkoutSessions, backups]) {
    await t.ctx.db.delete(table);
  }
});

const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

async function kinds(
  ctx = t.ctx,
  options: Parameters<typeof getDashboard>[2] = { jobs: [] },
): Promise<ProblemKind[]> {
  return (await getDashboard(ctx, admin.viewer, options)).problems.map((problem) => problem.kind);
}

async function queueMail(values: Partial<typeof mailOutbox.$inferInsert>) {
  await t.ctx.db.insert(mailOutbox).values({
    campusId: "ou",
    kind: "test",
    to: "jo@example.edu",
    subject: "Hello",
    html: "<p>Hello</p>",
    text: "Hello",
    ...values,
  });
}

describe("the dashboard's problems (decision 0551)", () => {
  it("is for site admins only: a student and a campus moderator get the 404", async () => {
    const moderator = await createModerator(t, "ou");
    await expect(getDashboard(t.ctx, member.viewer)).rejects.toMatchObject({ status: 404 });
    await expect(getDashboard(t.ctx, moderator.viewer)).rejects.toMatchObject({ status: 404 });
    await expect(getDashboard(t.ctx, null)).rejects.toMatchObject({ status: 404 });
    const dashboard = await getDashboard(t.ctx, admin.viewer, { jobs: [] });
    expect(dashboard.problems).toEqual([]);
    expect(dashboard.newestBackup).toBeNull();
  });

  it("the oldest queued mail older than 5 minutes, counted from when it became due", async () => {
    // A notification e-mail not yet due, and one queued 4 minutes ago: nothing waits too long.
    await queueMail({ createdAt: ago(20 * MINUTE), nextAttemptAt: ago(-10 * MINUTE) });
    await queueMail({ createdAt: ago(4 * MINUTE), nextAttemptAt: ago(4 * MINUTE) });
    // A mail that failed long ago is no queued mail.
    await queueMail({ status: "failed", createdAt: ago(3 * HOUR), nextAttemptAt: ago(3 * HOUR) });
    expect(await kinds()).toEqual([]);
    // Six minutes of the clock later the 4-minute-old one has waited 10.
    t.clock.advance(6 * MINUTE);
    const dashboard = await getDashboard(t.ctx, admin.viewer, { jobs: [] });
    expect(dashboard.problems).toHaveLength(1);
    const [problem] = dashboard.problems;
    expect(problem).toMatchObject({ kind: "mail-queued", link: { to: "/admin/mail?state=pending" } });
    expect(problem?.title).toBe("The oldest queued mail has waited 10 minutes.");
    expect(problem?.since).toEqual(ago(5 * MINUTE));
  });

  it("a mail being retried counts from when it was queued", async () => {
    await queueMail({ createdAt: ago(2 * MINUTE), nextAttemptAt: ago(-20 * MINUTE), attempts: 3 });
    expect(await kinds()).toEqual([]);
    t.clock.advance(4 * MINUTE);
    expect(await kinds()).toEqual(["mail-queued"]);
  });

  it("more than 10 failed deliveries in the last hour", async () => {
    // The worker leaves a failed mail's next_attempt_at at its last claim plus the lease.
    const failedAt = (ms: number) => ({
      status: "failed" as const,
      nextAttemptAt: new Date(ago(ms).getTime() + CLAIM_LEASE_MS),
    });
    for (let n = 0; n < 10; n++) await queueMail({ ...failedAt((n + 1) * MINUTE) });
    await queueMail({ ...failedAt(2 * HOUR) });
    expect(await kinds()).toEqual([]);
    await queueMail({ ...failedAt(30 * 1000) });
    const [problem] = (await getDashboard(t.ctx, admin.viewer, { jobs: [] })).problems;
    expect(problem).toMatchObject({
      kind: "mail-failing",
      title: "11 mails failed to be delivered in the last hour.",
    });
    // The eleventh of the hour made it a problem.
    expect(problem?.since).toEqual(ago(30 * 1000));
    // An hour on, they are old failures.
    t.clock.advance(HOUR);
    expect(await kinds()).toEqual([]);
  });

  it("a periodic job with no success in twice its interval", async () => {
    const jobs = [
      { name: "test-minutely", everyMs: MINUTE, runsIn: "one-process" as const },
      { name: "test-hourly", everyMs: HOUR, runsIn: "one-process" as const },
    ];
    // A fresh database: no job has run, which is no problem.
    expect(await kinds(t.ctx, { jobs })).toEqual([]);
    const run = (
      job: string,
      startedMsAgo: number,
      outcome: "succeeded" | "failed",
      error: string | null = null,
    ) =>
      t.ctx.db.insert(jobRuns).values({
        job,
        process: "host:1",
        startedAt: ago(startedMsAgo),
        finishedAt: ago(startedMsAgo - 1000),
        outcome,
        error,
      });
    await run("test-minutely", 90 * 1000, "succeeded");
    await run("test-hourly", 30 * MINUTE, "succeeded");
    expect(await kinds(t.ctx, { jobs })).toEqual([]);
    await run("test-minutely", 30 * 1000, "failed", "Error: the database is away");
    t.clock.advance(MINUTE);
    const problems = (await getDashboard(t.ctx, admin.viewer, { jobs })).problems;
    expect(problems.map((problem) => problem.kind)).toEqual(["job-stalled"]);
    expect(problems[0]?.title).toContain(
      "test-minutely has not succeeded for 2 minutes (it runs every minute).",
    );
    expect(problems[0]?.title).toContain("Its last run failed: Error: the database is away");
    // Its last success ended 89 s before the first check; twice a minute after that it stalled.
    expect(problems[0]?.since).toEqual(new Date(ago(MINUTE + 89 * 1000).getTime() + 2 * MINUTE));
    // A job that never ran at all, on a site whose jobs run, stalls too.
    const withNewcomer = [...jobs, { name: "test-never", everyMs: MINUTE, runsIn: "one-process" as const }];
    expect(await kinds(t.ctx, { jobs: withNewcomer })).toEqual(["job-stalled", "job-stalled"]);
  });

  it("Stripe configured, checkouts created, and no webhook in 24 hours", async () => {
    const stripe = { ...t.ctx, config: { ...t.ctx.config, stripeSecretKey: "sk_test_123" } };
    const checkout = (id: string, createdAt: Date, provider: "stripe" | "test" = "stripe") =>
      t.ctx.db.insert(checkoutSessions).values({
        id,
        userId: member.id,
        campusId: "ou",
        provider,
        amountTotal: 500,
        successUrl: "http://localhost/success",
        cancelUrl: "http://localhost/cancel",
        createdAt,
        expiresAt: new Date(createdAt.getTime() + DAY),
      });
    await t.ctx.db
      .insert(paymentEvents)
      .values({ id: "evt_1", type: "checkout.session.completed", receivedAt: ago(2 * DAY) });
    // Checkouts of the test checkout, and old ones, are no sign.
    await checkout("cs_test_1", ago(HOUR), "test");
    await checkout("cs_old", ago(3 * DAY));
    expect(await kinds(stripe)).toEqual([]);
    await checkout("cs_new", ago(3 * HOUR));
    // Without Stripe's keys there is no webhook to wait for.
    expect(await kinds()).toEqual([]);
    const [problem] = (await getDashboard(stripe, admin.viewer, { jobs: [] })).problems;
    expect(problem?.kind).toBe("webhook-silent");
    expect(problem?.since).toEqual(ago(3 * HOUR));
    expect(problem?.action).toContain("/webhooks/stripe");
    // A webhook arrives: the problem is gone.
    await t.ctx.db
      .insert(paymentEvents)
      .values({ id: "evt_2", type: "checkout.session.completed", receivedAt: ago(MINUTE) });
    expect(await kinds(stripe)).toEqual([]);
  });

  it("pending migrations: the build's journal ahead of the database", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "cbs-migrations-"));
    try {
      cpSync(migrationsFolder, folder, { recursive: true });
      expect(await kinds(t.ctx, { jobs: [], migrations: folder })).toEqual([]);
      const journalFile = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(readFileSync(journalFile, "utf8")) as {
        entries: { when: number; tag: string }[];
      };
      const last = journal.entries.at(-1);
      journal.entries.push({
        ...last,
        idx: journal.entries.length,
        when: (last?.when ?? 0) + 1000,
        tag: "9999_future",
      } as never);
      writeFileSync(journalFile, JSON.stringify(journal));
      writeFileSync(path.join(folder, "9999_future.sql"), "select 1;");
      const started = { ...t.ctx, startedAt: ago(HOUR) };
      const [problem] = (await getDashboard(started, admin.viewer, { jobs: [], migrations: folder }))
        .problems;
      expect(problem).toMatchObject({
        kind: "migrations-pending",
        title: "A migration is not applied: 9999_future.",
      });
      expect(problem?.since).toEqual(ago(HOUR));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("SMTP or push not configured, in production only", async () => {
    const configured = {
      ...t.ctx.config,
      smtpUrl: "smtp://mail.example.edu:587",
      vapidFromEnvironment: true,
    };
    expect(await kinds({ ...t.ctx, config: { ...configured, production: true } })).toEqual([]);
    // Outside production neither is needed.
    expect(
      await kinds({ ...t.ctx, config: { ...configured, smtpUrl: null, vapidFromEnvironment: false } }),
    ).toEqual([]);
    expect(await kinds({ ...t.ctx, config: { ...configured, production: true, smtpUrl: null } })).toEqual([
      "smtp-missing",
    ]);
    expect(
      await kinds({ ...t.ctx, config: { ...configured, production: true, vapidFromEnvironment: false } }),
    ).toEqual(["push-missing"]);
  });

  it("the last backup older than 7 days, when backups were ever made", async () => {
    expect(await kinds()).toEqual([]);
    await t.ctx.db.insert(backups).values({ file: "site-1.tar", bytes: 1000, createdAt: ago(8 * DAY) });
    await t.ctx.db.insert(backups).values({ file: "site-2.tar", bytes: 1000, createdAt: ago(6 * DAY) });
    let dashboard = await getDashboard(t.ctx, admin.viewer, { jobs: [] });
    expect(dashboard.problems).toEqual([]);
    expect(dashboard.newestBackup).toEqual({ file: "site-2.tar", bytes: 1000, createdAt: ago(6 * DAY) });
    t.clock.advance(2 * DAY);
    dashboard = await getDashboard(t.ctx, admin.viewer, { jobs: [] });
    expect(dashboard.problems).toMatchObject([
      { kind: "backup-old", title: "The last backup (site-2.tar) is 8 days old." },
    ]);
    expect(dashboard.problems[0]?.since).toEqual(ago(DAY));
  });
});

describe("the dashboard's campus counts (decision 0551)", () => {
  it("counts each campus's new and verified students, listings, completed trades, reports, running ads and revenue over 7 and 30 days", async () => {
    const fresh = await createTestMember(t, { campusId: "ut", fullName: "Ut New" });
    const unverified = await createTestMember(t, {
      campusId: "ut",
      fullName: "Ut Waiting",
      schoolVerified: false,
    });
    const older = await createTestMember(t, { campusId: "ut", fullName: "Ut Older" });
    const old = await createTestMember(t, { campusId: "ut", fullName: "Ut Old" });
    const setCreated = (id: string, at: Date) =>
      t.ctx.db.update(user).set({ createdAt: at }).where(eq(user.id, id));
    await setCreated(fresh.id, ago(DAY));
    await setCreated(unverified.id, ago(2 * DAY));
    await setCreated(older.id, ago(10 * DAY));
    await setCreated(old.id, ago(40 * DAY));
    const recent = await createTestPost(t, fresh.viewer, { text: "Desk lamp" });
    const monthOld = await createTestPost(t, older.viewer, { text: "Bike" });
    await t.ctx.db
      .update(posts)
      .set({ createdAt: ago(2 * DAY) })
      .where(eq(posts.id, recent.id));
    await t.ctx.db
      .update(posts)
      .set({ createdAt: ago(20 * DAY) })
      .where(eq(posts.id, monthOld.id));
    await openTestItem(t, {
      campusId: "ut",
      targetKind: "post",
      targetId: recent.id,
      targetUserId: fresh.id,
      reports: [{ reporter: older.viewer }],
    });
    const overdue = await createTestPost(t, older.viewer, { text: "Old chair" });
    await t.ctx.db
      .update(posts)
      .set({ createdAt: ago(40 * DAY) })
      .where(eq(posts.id, overdue.id));
    await openTestItem(t, {
      campusId: "ut",
      targetKind: "post",
      targetId: overdue.id,
      targetUserId: older.id,
      reports: [{ reporter: fresh.viewer }],
      openedAt: ago(4 * DAY),
    });
    const [ad] = await t.ctx.db
      .insert(ads)
      .values({
        campusId: "ut",
        postId: recent.id,
        userId: fresh.id,
        ctaType: "message",
        ctaLabel: "Message",
        days: 3,
        amountBudgeted: 900,
        status: "active",
      })
      .returning({ id: ads.id });
    const money = (
      kind: "payment" | "refund",
      amount: number,
      createdAt: Date,
      status: "succeeded" | "pending" = "succeeded",
    ) => ({
      userId: fresh.id,
      campusId: "ut",
      adId: ad?.id,
      kind,
      status,
      amount,
      provider: "test" as const,
      description: "Boost",
      createdAt,
    });
    await t.ctx.db
      .insert(payments)
      .values([
        money("payment", 900, ago(DAY)),
        money("refund", 300, ago(HOUR)),
        money("payment", 500, ago(12 * DAY)),
        money("payment", 700, ago(45 * DAY)),
        money("refund", 100, ago(HOUR), "pending"),
      ]);

    // Trades: one completed 2 days ago, one 20 days ago, one 40 days ago; an active and a cancelled deal never count.
    const deal = (postId: string, state: "active" | "completed" | "cancelled", completedAt: Date | null) => ({
      campusId: "ut",
      postId,
      sellerId: older.id,
      buyerId: fresh.id,
      state,
      completedAt,
    });
    await t.ctx.db
      .insert(deals)
      .values([
        deal(monthOld.id, "completed", ago(2 * DAY)),
        deal(overdue.id, "completed", ago(20 * DAY)),
        deal(overdue.id, "completed", ago(40 * DAY)),
        deal(monthOld.id, "cancelled", null),
        deal(overdue.id, "active", null),
      ]);

    const dashboard = await getDashboard(t.ctx, admin.viewer, { jobs: [] });
    const ut = dashboard.campuses.find((campus) => campus.campusId === "ut");
    expect(ut).toMatchObject({
      name: "UT",
      generic: false,
      windows: {
        7: { newStudents: 2, verifiedStudents: 1, listings: 1, completedTrades: 1, revenueCents: 600 },
        30: { newStudents: 3, verifiedStudents: 2, listings: 2, completedTrades: 2, revenueCents: 1100 },
      },
      openReports: 2,
      runningAds: 1,
    });
    // Overdue is decision 0541's 72 hours, by the clock: only the item opened 4 days ago.
    expect(ut?.overdueReports).toBe(1);
    // Every campus has its row; the generic site last.
    expect(dashboard.campuses.at(-1)?.generic).toBe(true);
    expect(dashboard.campuses.find((campus) => campus.campusId === "smu")).toMatchObject({
      windows: { 7: { newStudents: 0, listings: 0, revenueCents: 0 } },
      openReports: 0,
    });
  });
});
