import type { CampusDirectory } from "./campuses/directory";
import type { Clock } from "./clock";
import type { Config } from "./config";
import type { DatabaseHandle, Db } from "./db/client";
import type { JobRegistry } from "./jobs/registry";
import type { Logger } from "./logger";
import type { MailTransport } from "./mail/transport";
import type { MediaStorage } from "./media/storage";
import type { Payments } from "./payments/payments";
import type { RealtimeHub } from "./realtime/hub";

/**
 * What every domain function receives (docs/architecture.md rule 2): the database
 * and one seam per side effect, so tests swap in recording versions.
 */
export interface AppContext {
  config: Config;
  db: Db;
  database: DatabaseHandle;
  mail: MailTransport;
  /** Uploaded photos and videos (local disk by default; memory in tests). */
  storage: MediaStorage;
  /** Decision 0481: the only source of the time for domain code (server/clock.ts); tests and TEST_CLOCK=1 move it. */
  clock: Clock;
  log: Logger;
  /** The campuses, held in memory: every request reads its campus (refresh() after changing one). */
  campuses: CampusDirectory;
  /**
   * This process's live-event streams (decision 0213). Changes publish with
   * publishUserEvent(tx, …) (server/realtime/events.ts); the hub delivers them to streams.
   */
  realtime: RealtimeHub;
  /**
   * Decision 0361: where the visitors' lists read (a replica, DATABASE_READ_URL), or absent:
   * `db`. Only reads that may lag a moment: a signed-in viewer's lists read `db`, so their
   * own writes show at once. Use `listReads(ctx, viewer)` (server/posts/feed.ts).
   */
  listReadDb?: Db;
  /** Called after a transaction that wrote outbox rows commits, so the worker need not wait for its next poll. */
  wakeMailWorker(): void;
  /**
   * Decision 0551: this process's job registry, once started (server/http/app.ts), for the
   * operator console's 'Run now'; absent where no jobs run (the commands, most tests).
   */
  jobs?: Pick<JobRegistry, "runNow" | "isRunning" | "jobs" | "wake">;
  /** Decision 0551: when this process started, by the clock (the console dates configuration problems from it). */
  startedAt?: Date;
  /** Stripe Checkout, or the built-in test checkout without keys (decision 0270). */
  payments: Payments;
  /**
   * Called after an ad starts, stops or pauses outside a page's own write (the webhook, the ads
   * job): the visitor page cache drops its pages, as a post does (server/http/middleware/page-cache.ts).
   */
  onAdsChanged?(): void;
}
