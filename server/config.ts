import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import webpush from "web-push";
import campusList from "./campuses/campuses.json";
import type { S3Settings } from "./media/s3-storage";

/** Everything the app reads from its environment (docs/contract.md), parsed once at start. */
export interface Config {
  production: boolean;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * Decision 0361: a read replica of DATABASE_URL (DATABASE_READ_URL) for the visitors' lists
   * (feed, media grid, profile lists); null: they read the primary like everything else.
   */
  databaseReadUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  appSecret: string;
  publicUrl: string | null;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  googleClientId: string | null;
  googleClientSecret: string | null;
  googleIssuer: string;
  trustProxy: boolean;
  geoGate: boolean;
  firewall: boolean;
  logLevel: string;
  seedDemo: boolean;
  /** How long a visitor's page may be served from the page cache (server/http/middleware/page-cache.ts); 0 turns it off. */
  pageCacheMs: number;
  /**
   * Decision 0116: how many posts and comments one user may create in a rolling
   * minute and day (POSTS_PER_MINUTE, POSTS_PER_DAY); 0 means no limit for that window.
   */
  postLimits: { perMinute: number; perDay: number };
  /** Production host per campus id, e.g. { ou: "oubuysell.com" } (CAMPUS_HOSTS="ou=oubuysell.com,ut=…"). */
  campusHosts: Record<string, string>;
  /**
   * Sign-ups (password or e-mail link) one client address may make in a window (decisions 0127,
   * 0446): 25 in 5 minutes (SIGN_UPS_PER_5_MINUTES), or SIGN_UPS_PER_HOUR (docs/contract.md) in an hour.
   */
  signUpLimit: SignUpLimit;
  /**
   * Decision 0135: the campuses signed-out visitors may read, by id (PUBLIC_CAMPUSES,
   * `ou,ut` or `all`); every other campus is private (spec 1 §3). The campuses' stored privacy is
   * written from this at every start (server/campuses/campuses.ts seedCampuses).
   */
  publicCampuses: readonly string[];
  /**
   * Decision 0155: TEST_FIXTURES=1 mounts the end-to-end fixtures (server/dev/);
   * never in production, whatever the variable says.
   */
  testFixtures: boolean;
  /**
   * Decision 0292: uploaded media in an S3-compatible bucket (S3_BUCKET and its
   * keys), shared by every process and machine; null keeps it on local disk under DATA_DIR/media.
   */
  s3: S3Settings | null;
  /**
   * The realtime streams (decision 0211): at most `maxStreams` open event streams in
   * this process (REALTIME_MAX_STREAMS) and `maxStreamsPerUser` per user, so one user cannot
   * exhaust it; a heartbeat comment every `heartbeatMs` keeps proxies from closing an idle one.
   */
  realtime: { maxStreams: number; maxStreamsPerUser: number; heartbeatMs: number };
  /**
   * Decision 0251 (docs/contract.md NOTIFICATION_EMAIL_DELAY): how long a notification
   * e-mail waits, so what is read meanwhile is not mailed and several become one e-mail.
   */
  notificationEmailDelayMs: number;
  /** Decision 0252: the VAPID key pair web push is signed with (env, or generated once into DATA_DIR). */
  vapid: VapidKeys;
  /**
   * Decision 0551: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY were given, rather than generated into
   * DATA_DIR (a production site without them is a problem on the operator console).
   */
  vapidFromEnvironment: boolean;
  /**
   * Decision 0460: PUSH_LOCAL_SERVICE=1 lets push subscriptions name a push service on
   * this machine (http(s) on localhost), for the tests' local push service only; refused at start
   * when NODE_ENV=production.
   */
  pushLocalService: boolean;
  /**
   * Decision 0461: the key unsubscribe links are signed with (UNSUBSCRIBE_SECRET; by
   * default derived from APP_SECRET). Changing it voids every link sent, and nothing else.
   */
  unsubscribeSecret: string;
  /**
   * Decision 0481 (docs/contract.md TEST_CLOCK): TEST_CLOCK=1 runs the app on a clock tests move
   * forward through POST /dev/clock (server/dev/test-clock.ts); refused at start when
   * NODE_ENV=production.
   */
  testClock: boolean;
  /**
   * Decision 0522 (docs/contract.md ADMIN_EMAILS): the addresses whose accounts are site admins once
   * verified, lower-cased; granted at start and at verification, revoked at the next start when
   * taken off the list (server/staff/configured-admins.ts).
   */
  adminEmails: readonly string[];
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** The contact the push services are given (mailto:, from MAIL_FROM's address). */
  subject: string;
}

type Env = Record<string, string | undefined>;

/** `max` sign-ups per client address within `windowMs`; the address then waits the same again. */
export interface SignUpLimit {
  max: number;
  windowMs: number;
}

const MINUTE_MS = 60_000;

/**
 * Decision 0446: a campus network puts a whole dorm behind one address, so the default
 * lets a crowd in while holding a script to a human pace (25 in 5 minutes, as Mastodon allows).
 * SIGN_UPS_PER_HOUR (docs/contract.md: 'sign-ups one client address may make in an hour') keeps its
 * meaning: set, it is the rule. Both set is refused, as the two would disagree.
 */
function parseSignUpLimit(env: Env): SignUpLimit {
  const perHour = optional(env.SIGN_UPS_PER_HOUR);
  const perFiveMinutes = optional(env.SIGN_UPS_PER_5_MINUTES);
  if (perHour !== null && perFiveMinutes !== null) {
    throw new Error("Set SIGN_UPS_PER_HOUR or SIGN_UPS_PER_5_MINUTES, not both");
  }
  if (perHour !== null) {
    return { max: count("SIGN_UPS_PER_HOUR", perHour, 0, 1), windowMs: 60 * MINUTE_MS };
  }
  return {
    max: count("SIGN_UPS_PER_5_MINUTES", perFiveMinutes ?? undefined, 25, 1),
    windowMs: 5 * MINUTE_MS,
  };
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  return value === "1" || value.toLowerCase() === "true";
}

function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0)
    throw new Error(`Expected a number of seconds, got ${JSON.stringify(value)}`);
  return parsed;
}

/** A limit from the environment; `min` 0 lets the operator turn the limit off. */
function count(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    const floor = min === 0 ? "(0 for no limit)" : `of at least ${min}`;
    throw new Error(`${name}: expected a whole number ${floor}, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

function optional(value: string | undefined): string | null {
  return value === undefined || value.trim() === "" ? null : value.trim();
}

function parseCampusHosts(value: string | undefined): Record<string, string> {
  const hosts: Record<string, string> = {};
  for (const pair of (value ?? "").split(",")) {
    const [id, host] = pair.split("=").map((part) => part.trim().toLowerCase());
    if (id && host) hosts[id] = host;
  }
  return hosts;
}

/** Every campus id of docs/contract.md 'Campuses and hosts' (our copy of shared/campuses.json). */
const CAMPUS_IDS: readonly string[] = campusList.map((campus) => campus.slug);

/**
 * PUBLIC_CAMPUSES (decision 0135): unset or empty → none; `all` → every campus; else a
 * comma-separated list of campus ids. An id the app does not know stops the start with its
 * name, rather than leaving a campus the operator meant to open silently private.
 */
export function parsePublicCampuses(value: string | undefined): string[] {
  const ids = (value ?? "")
    .split(",")
    .map((id) => id.trim().toLowerCase())
    .filter((id) => id !== "");
  if (ids.includes("all")) return [...CAMPUS_IDS];
  const unknown = ids.filter((id) => !CAMPUS_IDS.includes(id));
  if (unknown.length > 0) {
    throw new Error(
      `PUBLIC_CAMPUSES: unknown campus ${unknown.map((id) => JSON.stringify(id)).join(", ")}; ` +
        `expected "all" or a comma-separated list of: ${CAMPUS_IDS.join(", ")}`,
    );
  }
  return [...new Set(ids)];
}

/** The secret is generated once and kept in DATA_DIR so sessions survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "app-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * S3_BUCKET turns the bucket on; then its keys are required. S3_ENDPOINT defaults to AWS in
 * S3_REGION (us-east-1); addresses are path-style (`{endpoint}/{bucket}/…`) whenever S3_ENDPOINT
 * is given, as S3-compatible servers expect, unless S3_FORCE_PATH_STYLE=0.
 */
export function parseS3Settings(env: Env): S3Settings | null {
  const bucket = optional(env.S3_BUCKET);
  if (!bucket) {
    const stray = ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"].filter((name) =>
      optional(env[name]),
    );
    if (stray.length > 0) {
      throw new Error(`${stray.join(", ")} set without S3_BUCKET: set S3_BUCKET to store media in a bucket`);
    }
    return null;
  }
  const accessKeyId = optional(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = optional(env.S3_SECRET_ACCESS_KEY);
  if (!accessKeyId || !secretAccessKey) {
    throw new Error("S3_BUCKET needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (README, Configuration)");
  }
  const region = optional(env.S3_REGION) ?? "us-east-1";
  const explicitEndpoint = optional(env.S3_ENDPOINT);
  const endpoint = explicitEndpoint ?? `https://s3.${region}.amazonaws.com`;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new Error(`S3_ENDPOINT: expected an http(s) URL, got ${JSON.stringify(endpoint)}`);
  }
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    region,
    forcePathStyle: flag(env.S3_FORCE_PATH_STYLE, explicitEndpoint !== null),
  };
}

/** DATABASE_READ_URL: only beside DATABASE_URL (the embedded database has no replicas). */
function readReplicaUrl(env: Env): string | null {
  const url = optional(env.DATABASE_READ_URL);
  if (url && !optional(env.DATABASE_URL)) {
    throw new Error(
      "DATABASE_READ_URL is a replica of DATABASE_URL: set DATABASE_URL too, or leave DATABASE_READ_URL unset",
    );
  }
  return url;
}

/**
 * Decision 0252: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when both are set; otherwise a pair
 * generated once into DATA_DIR, so browsers' subscriptions stay valid across restarts.
 */
function loadOrCreateVapidKeys(env: Env, dataDir: string, mailFrom: string): VapidKeys {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  const subject = optional(env.VAPID_SUBJECT) ?? `mailto:${address.trim()}`;
  const publicKey = optional(env.VAPID_PUBLIC_KEY);
  const privateKey = optional(env.VAPID_PRIVATE_KEY);
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  const file = path.join(dataDir, "vapid-keys.json");
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { publicKey: string; privateKey: string };
    return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return { ...keys, subject };
}

/** Decision 0460: a test-only allowance, so production refuses to start with it rather than ignore it. */
function pushLocalService(env: Env, production: boolean): boolean {
  const allowed = flag(env.PUSH_LOCAL_SERVICE, false);
  if (allowed && production) {
    throw new Error("PUSH_LOCAL_SERVICE is for tests only and is refused when NODE_ENV=production");
  }
  return allowed;
}

/** Decision 0481: refused in production rather than ignored, so no deployment runs on a movable clock. */
function testClock(env: Env, production: boolean): boolean {
  const on = flag(env.TEST_CLOCK, false);
  if (on && production) {
    throw new Error("TEST_CLOCK=1 is for tests only and is refused when NODE_ENV=production");
  }
  return on;
}

/** ADMIN_EMAILS: comma-separated addresses, compared in lower case as accounts' e-mails are stored. */
export function parseAdminEmails(value: string | undefined): string[] {
  const emails = (value ?? "")
    .split(",")
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== "");
  const malformed = emails.filter((email) => !/^[^@\s]+@[^@\s]+$/.test(email));
  if (malformed.length > 0) {
    throw new Error(
      `ADMIN_EMAILS: expected comma-separated e-mail addresses, got ${JSON.stringify(malformed[0])}`,
    );
  }
  return [...new Set(emails)];
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === "production";
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  const explicitSecret = optional(env.APP_SECRET);
  if (production && !explicitSecret) {
    throw new Error("APP_SECRET is required when NODE_ENV=production (see README, Configuration).");
  }
  const mailFrom = optional(env.MAIL_FROM) ?? "Campus Buy Sell <no-reply@localhost>";
  const appSecret = explicitSecret ?? loadOrCreateSecret(dataDir);
  return {
    production,
    port: Number(env.PORT || 3000),
    dataDir,
    databaseUrl: optional(env.DATABASE_URL),
    databaseReadUrl: readReplicaUrl(env),
    smtpUrl: optional(env.SMTP_URL),
    mailFrom,
    appSecret,
    publicUrl: optional(env.PUBLIC_URL)?.replace(/\/+$/, "") ?? null,
    stripeSecretKey: optional(env.STRIPE_SECRET_KEY),
    stripeWebhookSecret: optional(env.STRIPE_WEBHOOK_SECRET),
    googleClientId: optional(env.GOOGLE_CLIENT_ID),
    googleClientSecret: optional(env.GOOGLE_CLIENT_SECRET),
    googleIssuer: optional(env.GOOGLE_ISSUER)?.replace(/\/+$/, "") ?? "https://accounts.google.com",
    trustProxy: flag(env.TRUST_PROXY, false),
    geoGate: flag(env.GEO_GATE, production),
    firewall: flag(env.FIREWALL, false),
    logLevel: optional(env.LOG_LEVEL) ?? "info",
    seedDemo: flag(env.SEED_DEMO, true),
    pageCacheMs: seconds(env.PAGE_CACHE_SECONDS, 5) * 1000,
    postLimits: {
      perMinute: count("POSTS_PER_MINUTE", env.POSTS_PER_MINUTE, 10),
      perDay: count("POSTS_PER_DAY", env.POSTS_PER_DAY, 100),
    },
    campusHosts: parseCampusHosts(env.CAMPUS_HOSTS),
    signUpLimit: parseSignUpLimit(env),
    publicCampuses: parsePublicCampuses(env.PUBLIC_CAMPUSES),
    testFixtures: !production && flag(env.TEST_FIXTURES, false),
    s3: parseS3Settings(env),
    realtime: {
      maxStreams: count("REALTIME_MAX_STREAMS", env.REALTIME_MAX_STREAMS, 5000, 1),
      maxStreamsPerUser: 10,
      heartbeatMs: 25_000,
    },
    notificationEmailDelayMs: seconds(env.NOTIFICATION_EMAIL_DELAY, 120) * 1000,
    vapid: loadOrCreateVapidKeys(env, dataDir, mailFrom),
    vapidFromEnvironment: Boolean(optional(env.VAPID_PUBLIC_KEY) && optional(env.VAPID_PRIVATE_KEY)),
    pushLocalService: pushLocalService(env, production),
    unsubscribeSecret:
      optional(env.UNSUBSCRIBE_SECRET) ??
      createHmac("sha256", appSecret).update("unsubscribe-links").digest("hex"),
    testClock: testClock(env, production),
    adminEmails: parseAdminEmails(env.ADMIN_EMAILS),
  };
}
