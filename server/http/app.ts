import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { AppLoadContext, ServerBuild } from "react-router";
import { createAuth, hasConfiguredHosts } from "../accounts/auth";
import { signInMethods } from "../accounts/sign-in-methods";
import { startBackupControl } from "../backups/control-server";
import { seedCampuses } from "../campuses/campuses";
import { CampusDirectory } from "../campuses/directory";
import { MESSAGE_PHOTO_URL_PREFIX } from "../chats/content";
import { systemClock } from "../clock";
import { loadConfig } from "../config";
import type { AppContext } from "../context";
import { openDatabase, openReadReplica } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { seedDemoData } from "../db/seed";
import { mountRealtimeFixture } from "../dev/realtime-event";
import { mountTestClock, startTestClock } from "../dev/test-clock";
import { mountDealFixture } from "../dev/test-deal";
import { mountStrikeFixture } from "../dev/test-strike";
import { mountTestFixtures } from "../dev/test-student";
import { APP_JOBS, DELIVER_MAIL_JOB } from "../jobs/jobs";
import { startJobs } from "../jobs/registry";
import { createLogger } from "../logger";
import { createLogTransport, createSmtpTransport } from "../mail/transport";
import { createS3Storage } from "../media/s3-storage";
import { createDiskStorage, MEDIA_URL_PREFIX } from "../media/storage";
import { createPayments } from "../payments/select";
import { normaliseStoredPosts } from "../posts/normalise-stored";
import { announceCampusPagesChanged } from "../realtime/events";
import { createRealtimeHub } from "../realtime/hub";
import { syncBuiltinSafetyRules } from "../safety/rules";
import { syncConfiguredAdmins } from "../staff/configured-admins";
import "./load-context";
import { decideGeoGate } from "../geo/geo";
import { TIME_ZONE_COOKIE, timeZoneFromCookieHeader } from "../geo/time-zone-cookie.shared";
import { sweepUploadTemp, uploadTempRoot } from "../uploads/upload-form";
import { configureAppCookies } from "./cookie-settings";
import { mountAnalytics } from "./endpoints/analytics-beacon";
import { mountAuthEndpoints } from "./endpoints/auth";
import { EVENT_STREAM_PATH, eventStreamHandler } from "./endpoints/event-stream";
import { mountHealthCheck } from "./endpoints/health";
import { LIST_PAGES_ROUTE, listPagesHandler } from "./endpoints/list-pages";
import { serveMediaFiles, serveMessagePhotos } from "./endpoints/media-files";
import { mountPaymentWebhook } from "./endpoints/payment-webhook";
import { limitRequestBodies } from "./middleware/body-limit";
import { passClientIp } from "./middleware/client-ip";
import { finalErrorHandler } from "./middleware/final-error";
import { refuseNonFormWrites } from "./middleware/form-bodies";
import { createPageCache, isVisitorPagePath, type PageCache } from "./middleware/page-cache";
import { refuseDeepPaths } from "./middleware/path-depth";
import { createRenderLimiter } from "./middleware/render-limit";
import {
  privateForSessions,
  refuseUnsupportedMethods,
  rejectCrossSiteWrites,
  securityHeaders,
} from "./middleware/security";

/**
 * TRUST_PROXY=1 (docs/contract.md): the client address is the one the reverse proxy in front saw, the
 * last X-Forwarded-For entry — never the first, which the client writes itself, so no request can
 * choose the address every per-address limit is counted by (docs/contract.md 'Environment').
 */
export function trustedProxyHops(config: { trustProxy: boolean }): number | false {
  return config.trustProxy ? 1 : false;
}

// main.js serves the built client files with it, from this same bundle.
export { clientFiles } from "./middleware/static-files";

export interface RunningApp {
  app: express.Express;
  /**
   * The lists' next pages (`GET /api/lists/{list}`, decision 0106), to mount ahead of
   * everything else, the compression middleware included (main.js): infinite scroll asks
   * for one every few seconds, the handler compresses and sets its headers itself, and
   * the middleware in between has nothing to do for it but cost time (bench/README.md).
   */
  listPages: express.Express;
  /**
   * `GET /events`, the live-event stream (decision 0211), to mount ahead of the compression
   * middleware too (main.js): compressing would hold its writes back.
   */
  eventStream: express.Express;
  /** Ends every open event stream (their browsers reconnect elsewhere); main.js calls it first on shutdown. */
  endStreams(): Promise<void>;
  ctx: AppContext;
  /**
   * This process's page cache (null when off): `invalidateCampus(campusId)` is what another
   * process's write calls here, through the realtime hub's NOTIFY (decision 0293).
   */
  pageCache: PageCache | null;
  /**
   * The last handler of main.js's server too (decision 0471): every error answered with our page
   * or JSON in every mode, never Express's stack trace.
   */
  errors: express.ErrorRequestHandler;
  /** Stops background work and closes the database; call after the HTTP server stopped accepting. */
  close(): Promise<void>;
}

/**
 * Builds the whole app: configuration, database (migrated and seeded), mail
 * worker, better-auth, and the Express app serving React Router. main.js
 * adds static files (or Vite in development) in front and listens.
 */
export async function startApp(options: {
  dev: boolean;
  build?: () => Promise<ServerBuild>;
  /** The environment to configure from (main.js passes the operator's, before it set NODE_ENV for React). */
  env?: Record<string, string | undefined>;
}): Promise<RunningApp> {
  const config = loadConfig(options.env);
  // The app's own cookies: signed with APP_SECRET, Secure in production (decision 0111).
  configureAppCookies({ secrets: [config.appSecret], secure: config.production });
  const log = createLogger(config.logLevel);
  if (config.production && !hasConfiguredHosts(config)) {
    log.warn(
      "NODE_ENV=production without PUBLIC_URL or CAMPUS_HOSTS: the site answers only on localhost and {campus}.localhost (README, Production)",
    );
  }
  const database = await openDatabase(config);
  // Decision 0361: the visitors' lists on a read replica, when DATABASE_READ_URL names one.
  const replica = config.databaseReadUrl ? openReadReplica(config.databaseReadUrl) : null;
  await migrateDatabase(database);
  await seedCampuses(database.db, config.publicCampuses);

  const mail = config.smtpUrl
    ? createSmtpTransport(config.smtpUrl, config.mailFrom)
    : createLogTransport(log);
  let wake = () => {};
  const campuses = new CampusDirectory(database.db, config.campusHosts);
  await campuses.refresh();
  // Decision 0292: a bucket when S3_BUCKET is set (several machines share uploads), else local disk.
  const storage = config.s3
    ? createS3Storage(config.s3)
    : createDiskStorage(path.join(config.dataDir, "media"));
  // Upload folders a stopped process left behind (decision 0120); an hour spares another process's.
  await sweepUploadTemp(uploadTempRoot(config.dataDir), 60 * 60 * 1000);
  // Decision 0213: one listening connection per process, opened with the first stream.
  const realtime = createRealtimeHub({
    database,
    log,
    maxStreams: config.realtime.maxStreams,
    maxStreamsPerUser: config.realtime.maxStreamsPerUser,
  });
  // Decision 0481: TEST_CLOCK=1 (never in production) runs on a clock POST /dev/clock moves.
  const testClock = config.testClock ? await startTestClock({ database, realtime, log }) : null;
  const ctx: AppContext = {
    config,
    db: database.db,
    database,
    mail,
    storage,
    clock: testClock ?? systemClock,
    log,
    campuses,
    realtime,
    wakeMailWorker: () => wake(),
    startedAt: (testClock ?? systemClock).now(),
    payments: createPayments(config, database.db),
    listReadDb: replica?.db,
    // Replaced below by the page cache's, when there is one.
    onAdsChanged: () => {},
  };
  if (!config.stripeSecretKey) {
    log.info("STRIPE_SECRET_KEY is not set: boosting uses the built-in test checkout (no card is charged)");
  } else if (!config.stripeWebhookSecret) {
    log.warn(
      "STRIPE_SECRET_KEY without STRIPE_WEBHOOK_SECRET: webhooks are refused; ads start from the success page only",
    );
  }
  // Decision 0115: texts stored before the node cap, through the same normaliser (once per database).
  await normaliseStoredPosts(ctx);
  // Decision 0652: the built-in safety rules in the product's current wording (admins' rules untouched).
  await syncBuiltinSafetyRules(ctx.db, ctx.clock.now());
  if (config.seedDemo) await seedDemoData(ctx);
  // Decision 0522: ADMIN_EMAILS's verified accounts are site admins; addresses taken off lose it.
  await syncConfiguredAdmins(ctx);
  // Decision 0150: the composition root hands createAuth its sign-in methods.
  const auth = createAuth(ctx, signInMethods(ctx));
  // Decision 0480: every periodic job, from the one registry.
  const jobs = startJobs(ctx, APP_JOBS);
  // Decision 0580: `npm run backup` asks this process, which holds the embedded database, for a snapshot.
  const backupControl = database.pglite
    ? await startBackupControl({
        database,
        dataDir: config.dataDir,
        clock: ctx.clock,
        log,
        mediaInBucket: config.s3 !== null,
      })
    : null;
  wake = () => jobs.wake(DELIVER_MAIL_JOB);
  // Decision 0551: the console's 'Run now' runs a job through this registry.
  ctx.jobs = jobs;

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustedProxyHops(config));
  app.use(
    securityHeaders({
      production: config.production,
      dev: options.dev,
      // Google sign-in without JavaScript: a form posted here, redirected to the provider (decision 0112).
      formActionOrigins: config.googleClientId ? [new URL(config.googleIssuer).origin] : [],
    }),
  );
  // Decision 0471: TRACE and other methods no page answers, before anything tries to.
  app.use(refuseUnsupportedMethods());
  // Decision 0270: the payment webhook reads its raw body itself, ahead of every body rule below.
  mountPaymentWebhook(app, ctx);
  // Before anything reads a body (decision 0120).
  app.use(limitRequestBodies());
  app.use(rejectCrossSiteWrites());
  app.use(passClientIp());

  mountHealthCheck(app, database);
  // Decision 0155: end-to-end fixtures, only outside production with TEST_FIXTURES=1.
  mountTestFixtures(app, { ctx, auth });
  mountRealtimeFixture(app, { ctx, auth });
  mountStrikeFixture(app, { ctx, auth });
  mountDealFixture(app, { ctx, auth });
  mountTestClock(app, { ctx, testClock });

  // Uploaded media, from disk or the bucket alike (decision 0292): kept a year by browsers
  // (a key never names other content, decision 0050), ranges for video.
  app.use(MEDIA_URL_PREFIX, serveMediaFiles(storage));
  // Chat photos: to the chat's two members only, private (decision 0463).
  app.use(
    MESSAGE_PHOTO_URL_PREFIX,
    serveMessagePhotos({ ctx, auth, storage, campusOf: (host) => campuses.forHost(host).id }),
  );

  mountAuthEndpoints(app, auth);

  // The geo gate of the root loader (spec 1 §6), for answers served before React Router.
  const geoGateAdmits = async (req: express.Request) =>
    (
      await decideGeoGate({
        enabled: config.geoGate,
        firewall: config.firewall,
        clientIp: req.ip ?? null,
        browserTimeZone: timeZoneFromCookieHeader(req.headers.cookie),
        now: ctx.clock.now(),
      })
    ).allowed;

  const listPages = express();
  listPages.disable("x-powered-by");
  // The geo gate reads req.ip as the app does.
  listPages.set("trust proxy", trustedProxyHops(config));
  listPages.get(LIST_PAGES_ROUTE, listPagesHandler({ ctx, auth, admitsFeed: geoGateAdmits }));
  const errors = finalErrorHandler(log);
  listPages.use(errors);

  const eventStream = express();
  eventStream.disable("x-powered-by");
  eventStream.set("trust proxy", trustedProxyHops(config));
  eventStream.get(EVENT_STREAM_PATH, eventStreamHandler({ ctx, auth }));
  eventStream.use(errors);

  // An address deeper than any page is refused before React Router matches it (decision 0400).
  app.use(refuseDeepPaths());
  // Ahead of the page cache: a refused write changes nothing, so it clears no cached page either.
  app.use(refuseNonFormWrites());
  // Pages and data answers rendered for a session are never stored by any cache (decision 0111).
  app.use(privateForSessions());
  // Ahead of the page cache: a view counted changes no cached page (decision 0273).
  mountAnalytics(app, { ctx, auth });

  let pageCache: PageCache | null = null;
  const announcePageChanges = (campusId: string | null) => {
    // After the write: failing to announce leaves other processes' pages until they expire.
    announceCampusPagesChanged(database.db, campusId).catch((error) =>
      log.warn({ err: error, campusId }, "page cache: could not tell the other processes of a change"),
    );
  };
  if (config.pageCacheMs > 0 && !options.dev) {
    pageCache = createPageCache({
      ttlMs: config.pageCacheMs,
      maxEntries: 500,
      maxBytes: 1024 * 1024,
      cacheablePath: isVisitorPagePath,
      sharedCookies: [TIME_ZONE_COOKIE],
      // The root loader's geo gate decides the same way for a hit.
      admit: geoGateAdmits,
      // A write on any of a campus's hosts drops the campus's pages (decision 0293)…
      campusOf: (host) => campuses.forHost(host).id,
      // …in every process: announced on the realtime hub's listening connection (decision 0360).
      onWrite: (campusId) => announcePageChanges(campusId),
    });
    const cache = pageCache;
    await realtime.watchCampusPages((campusId) => {
      if (campusId === null) cache.dropAll();
      else cache.invalidateCampus(campusId);
    });
    app.use(cache.middleware);
    // An ad started by the webhook or ended by the ads job changes the feed (decision 0274), of
    // every campus, in every process.
    ctx.onAdsChanged = () => {
      cache.dropAll();
      announcePageChanges(null);
    };
  }

  // Decision 0107: past this point a request costs a render; /healthz, media and cached pages are served above.
  app.use(createRenderLimiter().middleware);

  app.use(
    createRequestHandler({
      // Production passes the build itself: given a function, React Router re-derives its
      // route tables on every request (meant for development reloads); bench/README.md measured it.
      build: options.build ?? (await import("virtual:react-router/server-build")),
      mode: options.dev ? "development" : "production",
      getLoadContext(req, res): AppLoadContext {
        return {
          app: ctx,
          auth,
          campuses,
          campus: campuses.forHost(req.headers.host),
          nonce: String(res.locals.cspNonce ?? ""),
          clientIp: req.ip ?? null,
        };
      },
    }),
  );

  // Decision 0471: last, so no error reaches Express's own handler (a stack trace outside production).
  app.use(errors);

  return {
    app,
    listPages,
    eventStream,
    errors,
    endStreams: () => realtime.close(),
    ctx,
    pageCache,
    async close() {
      await backupControl?.close();
      await realtime.close();
      await jobs.stop();
      mail.close?.();
      await replica?.close();
      await database.close();
    },
  };
}
