import { readFileSync } from "node:fs";
import path from "node:path";
import { and, count, eq, gt, lte, max, min, or, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { migrationsFolder } from "../db/migrate";
import { checkoutSessions, mailOutbox, paymentEvents } from "../db/schema";
import { PAYMENT_WEBHOOK_PATH } from "../http/endpoints/payment-webhook";
import type { JobDefinition } from "../jobs/registry";
import { CLAIM_LEASE_MS } from "../mail/outbox";

/**
 * Decision 0551: the dashboard's problems, each detected from the rows and the clock when the
 * page is read (never a flag a job sets), each with the moment it became a problem and what to do.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Decision 0551's thresholds. */
export const PROBLEM_RULES = {
  queuedMailMs: 5 * MINUTE_MS,
  failedMailWindowMs: HOUR_MS,
  failedMailMax: 10,
  /** A job is stalled without a success in twice its interval, and never in less than this. */
  jobGraceMinMs: MINUTE_MS,
  webhookWindowMs: DAY_MS,
  backupMaxAgeMs: 7 * DAY_MS,
} as const;

export type ProblemKind =
  | "mail-queued"
  | "mail-failing"
  | "job-stalled"
  | "webhook-silent"
  | "migrations-pending"
  | "smtp-missing"
  | "push-missing"
  | "backup-old";

export interface Problem {
  kind: ProblemKind;
  /** When it became a problem (for a configuration, when this server started with it). */
  since: Date;
  /** What is wrong, in the operator's words. */
  title: string;
  /** What to do about it. */
  action: string;
  /** The console page that shows more, if any. */
  link: { to: string; label: string } | null;
}

export type ProblemContext = Pick<AppContext, "db" | "clock" | "config" | "startedAt">;

/** '12 minutes', '3 hours', '9 days': an age as the dashboard says it. */
export function ageWords(ms: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (ms < HOUR_MS) return unit(Math.max(1, Math.floor(ms / MINUTE_MS)), "minute");
  if (ms < 2 * DAY_MS) return unit(Math.floor(ms / HOUR_MS), "hour");
  return unit(Math.floor(ms / DAY_MS), "day");
}

function everyWords(ms: number): string {
  if (ms < MINUTE_MS) return `${Math.round(ms / 1000)} seconds`;
  if (ms < HOUR_MS) return ms === MINUTE_MS ? "minute" : `${Math.round(ms / MINUTE_MS)} minutes`;
  return ms === HOUR_MS ? "hour" : `${Math.round(ms / HOUR_MS)} hours`;
}

/**
 * Decision 0553: since when a queued mail has waited — since it was queued, or, for one that was
 * never tried (a notification e-mail's delay), since it became due. A mail not yet due waits for
 * nothing.
 */
const waitingSince = sql`case when ${mailOutbox.attempts} = 0 then greatest(${mailOutbox.createdAt}, ${mailOutbox.nextAttemptAt}) else ${mailOutbox.createdAt} end`;

/** The oldest queued mail's waiting time (decision 0553), or null when nothing waits. */
export async function oldestQueuedMail(db: Queryable, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ since: min(waitingSince).mapWith(mailOutbox.createdAt) })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, "pending"),
        or(gt(mailOutbox.attempts, 0), lte(mailOutbox.nextAttemptAt, now)),
      ),
    );
  return row?.since ?? null;
}

async function queuedMailProblem(ctx: ProblemContext, now: Date): Promise<Problem | null> {
  const since = await oldestQueuedMail(ctx.db, now);
  if (!since || now.getTime() - since.getTime() <= PROBLEM_RULES.queuedMailMs) return null;
  return {
    kind: "mail-queued",
    since: new Date(since.getTime() + PROBLEM_RULES.queuedMailMs),
    title: `The oldest queued mail has waited ${ageWords(now.getTime() - since.getTime())}.`,
    action:
      "Check that SMTP_URL names a mail server that accepts this site's mail, and read the queued mails' last errors on the Mail page.",
    link: { to: "/admin/mail?state=pending", label: "Queued mail" },
  };
}

/**
 * Decision 0553: when a mail failed. The outbox keeps no failure time: the worker set
 * next_attempt_at to its claim plus the lease when it took the mail for its last attempt, so the
 * claim (that less the lease) is the failure's minute.
 */
const failedAt = sql`${mailOutbox.nextAttemptAt} - make_interval(secs => ${CLAIM_LEASE_MS / 1000})`;

async function failedMailProblem(ctx: ProblemContext, now: Date): Promise<Problem | null> {
  const windowStart = new Date(now.getTime() - PROBLEM_RULES.failedMailWindowMs + CLAIM_LEASE_MS);
  const inWindow = and(eq(mailOutbox.status, "failed"), gt(mailOutbox.nextAttemptAt, windowStart));
  const [counted] = await ctx.db.select({ n: count() }).from(mailOutbox).where(inWindow);
  const failures = counted?.n ?? 0;
  if (failures <= PROBLEM_RULES.failedMailMax) return null;
  // It became a problem with the failure that made it one too many.
  const [tipping] = await ctx.db
    .select({ at: sql`${failedAt}`.mapWith(mailOutbox.createdAt) })
    .from(mailOutbox)
    .where(inWindow)
    .orderBy(mailOutbox.nextAttemptAt)
    .offset(PROBLEM_RULES.failedMailMax)
    .limit(1);
  return {
    kind: "mail-failing",
    since: tipping?.at ?? now,
    title: `${failures} mails failed to be delivered in the last hour.`,
    action:
      "Read their errors on the Mail page: a refused login or address means SMTP_URL or MAIL_FROM is wrong. Once fixed, retry them there.",
    link: { to: "/admin/mail?state=failed", label: "Failed mail" },
  };
}

/** Decision 0551: how long a job may go without a success before it is stalled. */
export function stalledAfterMs(job: Pick<JobDefinition, "everyMs">): number {
  return Math.max(2 * job.everyMs, PROBLEM_RULES.jobGraceMinMs);
}

interface JobHealthRow {
  name: string;
  last_success: number | null;
  first_run: number | null;
  last_error: string | null;
}

/**
 * Each job's last success, first recorded run and latest run's error, in one statement: each a
 * short walk of job_runs_job_started_idx. Times as epoch milliseconds, the same on both databases.
 */
async function jobHealth(db: Queryable, jobs: readonly JobDefinition[]): Promise<JobHealthRow[]> {
  if (jobs.length === 0) return [];
  const names = sql.join(
    jobs.map((job) => sql`(${job.name})`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select j.name,
      (select (extract(epoch from r.finished_at) * 1000)::float8 from job_runs r
        where r.job = j.name and r.outcome = 'succeeded' order by r.started_at desc nulls last limit 1) as last_success,
      (select (extract(epoch from r.started_at) * 1000)::float8 from job_runs r
        where r.job = j.name order by r.started_at asc nulls first limit 1) as first_run,
      (select r.error from job_runs r where r.job = j.name order by r.started_at desc nulls last limit 1) as last_error
    from (values ${names}) as j(name)`);
  return (result as unknown as { rows: JobHealthRow[] }).rows;
}

async function stalledJobProblems(
  ctx: ProblemContext,
  now: Date,
  jobs: readonly JobDefinition[],
): Promise<Problem[]> {
  const rows = await jobHealth(ctx.db, jobs);
  // A job that never ran is measured from the first run any job recorded: a fresh database, whose
  // jobs have not run yet, is no problem; a job missing from a running site is.
  const firstRuns = rows.flatMap((row) => (row.first_run === null ? [] : [Number(row.first_run)]));
  const jobsBegan = firstRuns.length > 0 ? Math.min(...firstRuns) : null;
  return jobs.flatMap((job): Problem[] => {
    const row = rows.find((candidate) => candidate.name === job.name);
    const lastSuccess = row?.last_success == null ? null : Number(row.last_success);
    const from = lastSuccess ?? jobsBegan;
    const limit = stalledAfterMs(job);
    if (from === null || now.getTime() - from <= limit) return [];
    const error = row?.last_error ? ` Its last run failed: ${row.last_error.slice(0, 200)}` : "";
    return [
      {
        kind: "job-stalled",
        since: new Date(from + limit),
        title:
          lastSuccess === null
            ? `The job ${job.name} has not succeeded since the jobs started (it runs every ${everyWords(job.everyMs)}).${error}`
            : `The job ${job.name} has not succeeded for ${ageWords(now.getTime() - lastSuccess)} (it runs every ${everyWords(job.everyMs)}).${error}`,
        action:
          "Open Jobs and use Run now: a run that fails shows its error. If no run starts, the server's processes may be stuck: restart them.",
        link: { to: "/admin/jobs", label: "Jobs" },
      },
    ];
  });
}

async function webhookProblem(ctx: ProblemContext, now: Date): Promise<Problem | null> {
  if (!ctx.config.stripeSecretKey) return null;
  const windowStart = new Date(now.getTime() - PROBLEM_RULES.webhookWindowMs);
  const [[webhook], [checkouts]] = await Promise.all([
    ctx.db.select({ last: max(paymentEvents.receivedAt) }).from(paymentEvents),
    ctx.db
      .select({ n: count(), first: min(checkoutSessions.createdAt) })
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.provider, "stripe"), gt(checkoutSessions.createdAt, windowStart))),
  ]);
  const last = webhook?.last ?? null;
  if (!checkouts?.first || checkouts.n === 0 || (last && last > windowStart)) return null;
  const silentSince = last ? last.getTime() + PROBLEM_RULES.webhookWindowMs : 0;
  return {
    kind: "webhook-silent",
    since: new Date(Math.max(silentSince, checkouts.first.getTime())),
    title: last
      ? `${checkouts.n} Stripe checkouts were created in the last 24 hours, but no webhook has arrived since ${last.toISOString().slice(0, 10)}.`
      : `${checkouts.n} Stripe checkouts were created in the last 24 hours, but no webhook has ever arrived.`,
    action: `In Stripe's dashboard, check that a webhook endpoint points at this site's ${PAYMENT_WEBHOOK_PATH} and that its signing secret is STRIPE_WEBHOOK_SECRET. Until then, paid ads start only from the success page.`,
    link: null,
  };
}

/**
 * The migrations folder's journal (a few kilobytes, read at each look: a test or a deploy may
 * change it). Each entry's `when` is what drizzle's migrator records as its created_at.
 */
function journalOf(folder: string): { tag: string; when: number }[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries;
}

/** Migrations of `folder` the database has not applied, as drizzle's migrator decides it. */
export async function pendingMigrations(db: Queryable, folder = migrationsFolder): Promise<string[]> {
  const result = await db.execute(
    sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  const last = Number((result as unknown as { rows: { last: string | null }[] }).rows[0]?.last ?? 0);
  return journalOf(folder)
    .filter((entry) => entry.when > last)
    .map((entry) => entry.tag);
}

async function migrationProblem(ctx: ProblemContext, now: Date, folder?: string): Promise<Problem | null> {
  const pending = await pendingMigrations(ctx.db, folder);
  if (pending.length === 0) return null;
  return {
    kind: "migrations-pending",
    since: ctx.startedAt ?? now,
    title: `${pending.length === 1 ? "A migration is" : `${pending.length} migrations are`} not applied: ${pending.join(", ")}.`,
    action:
      "Restart the server: it applies migrations at start. If it fails to start, its log says which statement failed.",
    link: null,
  };
}

function configurationProblems(ctx: ProblemContext, now: Date): Problem[] {
  if (!ctx.config.production) return [];
  const since = ctx.startedAt ?? now;
  const problems: Problem[] = [];
  if (!ctx.config.smtpUrl) {
    problems.push({
      kind: "smtp-missing",
      since,
      title: "SMTP_URL is not set: no mail leaves the site (codes, links and notices stay in the outbox).",
      action:
        "Set SMTP_URL to your mail provider's smtps:// address and restart. The queued mail then goes out.",
      link: null,
    });
  }
  if (!ctx.config.vapidFromEnvironment) {
    problems.push({
      kind: "push-missing",
      since,
      title:
        "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: push notifications use keys generated into DATA_DIR, which another machine or a new folder replaces, ending every subscription.",
      action:
        "Set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (copy the keys from DATA_DIR/vapid-keys.json to keep today's subscriptions) and restart.",
      link: null,
    });
  }
  return problems;
}

function backupProblem(backup: { file: string; createdAt: Date } | null, now: Date): Problem | null {
  if (!backup || now.getTime() - backup.createdAt.getTime() <= PROBLEM_RULES.backupMaxAgeMs) return null;
  return {
    kind: "backup-old",
    since: new Date(backup.createdAt.getTime() + PROBLEM_RULES.backupMaxAgeMs),
    title: `The last backup (${backup.file}) is ${ageWords(now.getTime() - backup.createdAt.getTime())} old.`,
    action: "Run npm run backup -- FILE (README, Backups), and schedule it, for example daily with cron.",
    link: null,
  };
}

/**
 * Decision 0551: every problem of the site now, oldest first. `jobs` are the registry's
 * (APP_JOBS); `migrations` the folder to compare with (the build's).
 */
export async function findProblems(
  ctx: ProblemContext,
  options: {
    jobs: readonly JobDefinition[];
    migrations?: string;
    backup: { file: string; createdAt: Date } | null;
  },
): Promise<Problem[]> {
  const now = ctx.clock.now();
  const found = await Promise.all([
    queuedMailProblem(ctx, now),
    failedMailProblem(ctx, now),
    stalledJobProblems(ctx, now, options.jobs),
    webhookProblem(ctx, now),
    migrationProblem(ctx, now, options.migrations),
  ]);
  return [...found.flat(), ...configurationProblems(ctx, now), backupProblem(options.backup, now)]
    .filter((problem): problem is Problem => problem !== null)
    .sort((a, b) => a.since.getTime() - b.since.getTime());
}
