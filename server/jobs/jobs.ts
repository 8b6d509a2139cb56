import { sendBadgeReminders } from "../accounts/badge";
import { runAdsRound } from "../ads/worker";
import type { AppContext } from "../context";
import { deliverMailRound } from "../mail/worker";
import { releaseDeletedAccounts } from "../privacy/deletion";
import { runDataExportsRound } from "../privacy/export";
import { pruneRealtimeBacklog } from "../realtime/backlog";
import { runSavedSearchDigest, SAVED_SEARCH_DIGEST_JOB } from "../search/saved-search-digest";
import { runSavedSearchMatching } from "../search/saved-search-matching";
import { SAVED_SEARCH_MATCH_JOB } from "../search/saved-search-matching-queue";
import { sendMeetupReminders } from "../trade/meetup-reminders";
import { runOfferRound } from "../trade/offer-jobs";
import { recountReplySpeeds } from "../trade/reputation";
import { settleReviewWindows } from "../trade/reviews";
import type { Job } from "./registry";
import { pruneJobRuns } from "./runs";

/** The job ctx.wakeMailWorker() wakes after a commit that wrote outbox rows. */
export const DELIVER_MAIL_JOB = "deliver-mail";

const HOUR_MS = 60 * 60 * 1000;

/**
 * Decision 0480: every periodic job of the app, one entry each. A new job is a new line here,
 * nothing else: server/http/app.ts starts them all (startJobs) and stops them at shutdown.
 *
 * Not here, because they are no jobs: a listing's expiry ('Still available?', decision 0171) and
 * every other deadline a user sees are compared with ctx.clock when read; the live streams'
 * heartbeats, the realtime hub's ping and presence heartbeat belong to their connections
 * (server/jobs/timers.test.ts lists them).
 */
export const APP_JOBS: readonly Job<AppContext>[] = [
  {
    // Decisions 0251, 0252 and 0331: the outbox and the web pushes. Every process delivers: the
    // outbox shares its due rows out with FOR UPDATE SKIP LOCKED, so each mail goes once.
    name: DELIVER_MAIL_JOB,
    runsIn: "every-process",
    everyMs: 2_000,
    run: deliverMailRound,
  },
  {
    // Decision 0275: ads past their end, checkouts left unpaid, refunds to retry.
    name: "expire-ads",
    runsIn: "one-process",
    everyMs: 60_000,
    run: async (ctx) => {
      await runAdsRound(ctx);
    },
  },
  {
    // Decision 0214: the bound is a ceiling on storage, not something a reader relies on to the
    // minute; first a minute after start, so a restart's burst of reconnects comes first.
    name: "prune-realtime-backlog",
    runsIn: "one-process",
    everyMs: HOUR_MS,
    firstRunAfterMs: 60_000,
    run: async (ctx) => {
      await pruneRealtimeBacklog(ctx.db, { now: ctx.clock.now() });
    },
  },
  {
    // Decision 0570: students' data archives, one at a time, and the files of spent links.
    name: "prepare-data-exports",
    runsIn: "one-process",
    everyMs: 10_000,
    run: runDataExportsRound,
  },
  {
    // Decision 0571: a deleted account's username and addresses are free again after 30 days.
    name: "release-deleted-accounts",
    runsIn: "one-process",
    everyMs: HOUR_MS,
    firstRunAfterMs: 60_000,
    run: async (ctx) => {
      await releaseDeletedAccounts(ctx);
    },
  },
  {
    // Decision 0601: offers' reminders 2 hours before expiry and their expiry notices (an offer
    // reads Expired from the clock whatever this job did).
    name: "offer-reminders",
    runsIn: "one-process",
    everyMs: 60_000,
    run: async (ctx) => {
      await runOfferRound(ctx);
    },
  },
  {
    // Decision 0612: both people of an accepted meetup are reminded an hour before, once.
    name: "meetup-reminders",
    runsIn: "one-process",
    everyMs: 60_000,
    run: sendMeetupReminders,
  },
  {
    // Decision 0617: deals whose 14 review days ended: the lone review's subject is told, both
    // reputations recounted, the deal settled. Publication itself is read from the clock.
    name: "settle-review-windows",
    runsIn: "one-process",
    everyMs: 10 * 60_000,
    firstRunAfterMs: 60_000,
    run: settleReviewWindows,
  },
  {
    // Decision 0616: the members' reply speed, a bounded batch an hour.
    name: "recount-reply-speeds",
    runsIn: "one-process",
    everyMs: HOUR_MS,
    firstRunAfterMs: 5 * 60_000,
    run: async (ctx) => {
      await recountReplySpeeds(ctx);
    },
  },
  {
    // Decision 0621: new and available-again listings against the saved searches. Woken after
    // the commit that queued one (an instant alert within seconds); the timer drains leftovers.
    name: SAVED_SEARCH_MATCH_JOB,
    runsIn: "one-process",
    everyMs: 30_000,
    run: runSavedSearchMatching,
  },
  {
    // Decision 0630: the daily e-mail of Daily saved searches, once each campus's clock passes
    // 08:00; a minute's tick is late by at most a minute, and an idle run is one indexed query.
    name: SAVED_SEARCH_DIGEST_JOB,
    runsIn: "one-process",
    everyMs: 60_000,
    run: runSavedSearchDigest,
  },
  {
    // Decision 0480: job_runs stays bounded.
    name: "prune-job-runs",
    runsIn: "one-process",
    everyMs: HOUR_MS,
    firstRunAfterMs: 60_000,
    run: async (ctx) => {
      await pruneJobRuns(ctx);
    },
  },
  {
    // Decision 0681: badges lapsing within 30 days, each reminded once a period (notice and e-mail).
    name: "badge-reminders",
    runsIn: "one-process",
    everyMs: HOUR_MS,
    firstRunAfterMs: 60_000,
    run: sendBadgeReminders,
  },
];
