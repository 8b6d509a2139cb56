import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import webpush from "web-push";
import { type Auth, createAuth } from "../../server/accounts/auth";
import { signInMethods } from "../../server/accounts/sign-in-methods";
import { readStoredCheckoutSession } from "../../server/ads/fulfilment";
import { seedCampuses } from "../../server/campuses/campuses";
import { CampusDirectory } from "../../server/campuses/directory";
import type { Clock } from "../../server/clock";
import { type Config, loadConfig } from "../../server/config";
import type { AppContext } from "../../server/context";
import { type DatabaseHandle, pgliteExtensions, wrapPglite, wrapPool } from "../../server/db/client";
import { configureAppCookies } from "../../server/http/cookie-settings";
import { createLogger } from "../../server/logger";
import { createRecordingTransport, type RecordingTransport } from "../../server/mail/transport";
import { createMemoryStorage, type MemoryStorage } from "../../server/media/storage";
import { createTestPayments } from "../../server/payments/payments";
import { createRealtimeHub } from "../../server/realtime/hub";

/** A clock tests can move: codes expire and lockouts end without waiting. */
export interface TestClock extends Clock {
  set(date: Date): void;
  advance(ms: number): void;
}

export function createTestClock(start = new Date("2026-03-02T15:00:00Z")): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (date) => {
      current = date.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface TestContext {
  ctx: AppContext;
  auth: Auth;
  mail: RecordingTransport;
  /** What the code under test stored through ctx.storage. */
  storage: MemoryStorage;
  clock: TestClock;
  /** How many times the code under test woke the mail worker. */
  wakes: { count: number };
  close(): Promise<void>;
}

async function openTestDatabase(): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const template = inject("postgresTemplate");
  const databaseUrl = process.env.DATABASE_URL;
  if (template && databaseUrl) {
    const name = `cbs_test_${process.pid}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const handle = wrapPool(new pg.Pool({ connectionString: url.toString(), max: 5 }));
    return {
      handle,
      async drop() {
        const cleanup = new pg.Client({ connectionString: databaseUrl });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    };
  }
  const snapshot = readFileSync(inject("pgliteSnapshot"));
  const client = await PGlite.create({ loadDataDir: new Blob([snapshot]), extensions: pgliteExtensions });
  return { handle: wrapPglite(client), drop: async () => {} };
}

function testVapidKeys(): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string } {
  const keys = webpush.generateVAPIDKeys();
  return { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey };
}

/** A freshly migrated database with the campuses, and recording seams (docs/architecture.md rule 10). */
export async function createTestContext(overrides: Partial<Config> = {}): Promise<TestContext> {
  const { handle, drop } = await openTestDatabase();
  const config: Config = {
    ...loadConfig({
      APP_SECRET: "test-secret-test-secret-test-secret",
      DATA_DIR: ".tmp/test-data",
      // Tests make their data far faster than people post; the posting-limit tests
      // (server/posts/posting-limits.test.ts) pass the limits they check.
      POSTS_PER_MINUTE: "0",
      POSTS_PER_DAY: "0",
      // Decision 0135: campuses are private unless opened; tests of visitors' pages read open
      // ones, and the privacy tests ask for `publicCampuses: []` or close a campus themselves.
      PUBLIC_CAMPUSES: "all",
      // docs/contract.md: tests run notification e-mails without delay; the delay tests set theirs.
      NOTIFICATION_EMAIL_DELAY: "0",
      // Decision 0252: keys of the test's own, never a file several test workers would race to write.
      ...testVapidKeys(),
    }),
    ...overrides,
  };
  // As the app does at start: the campuses with their privacy from the configuration.
  await seedCampuses(handle.db, config.publicCampuses);
  const campuses = new CampusDirectory(handle.db, {});
  await campuses.refresh();
  configureAppCookies({ secrets: [config.appSecret], secure: config.production });
  const mail = createRecordingTransport();
  const storage = createMemoryStorage();
  const clock = createTestClock();
  const wakes = { count: 0 };
  const ctx: AppContext = {
    config,
    db: handle.db,
    database: handle,
    mail,
    storage,
    clock,
    log: createLogger("silent"),
    campuses,
    // The real hub on the test database: it listens only once a test opens a stream.
    realtime: createRealtimeHub({
      database: handle,
      log: createLogger("silent"),
      maxStreams: config.realtime.maxStreams,
      maxStreamsPerUser: config.realtime.maxStreamsPerUser,
    }),
    wakeMailWorker: () => {
      wakes.count++;
    },
    // Decision 0270: the built-in test checkout, its sessions in this test's database.
    payments: createTestPayments({
      webhookSecret: "whsec_test_secret_for_tests",
      readSession: (id) => readStoredCheckoutSession({ db: handle.db }, id),
    }),
  };
  // Decision 0150: the composition root hands createAuth its sign-in methods.
  const auth = createAuth(ctx, signInMethods(ctx));
  return {
    ctx,
    auth,
    mail,
    storage,
    clock,
    wakes,
    async close() {
      await ctx.realtime.close();
      await handle.close();
      await drop();
    },
  };
}
