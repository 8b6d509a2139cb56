import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { genericOAuth, magicLink } from "better-auth/plugins";
import type { GenericOAuthConfig } from "better-auth/plugins/generic-oauth";
import { campusOrigin, DEFAULT_CAMPUS_ID, type HostConfig } from "../campuses/campuses";
import type { AppContext } from "../context";
import * as schema from "../db/schema";
import { syncConfiguredAdminOf } from "../staff/configured-admins";
import { ACCOUNT_MESSAGES, BANNED_AUTH_CODE, RESERVED_AUTH_CODE } from "./errors.shared";
import { createSessionLookupCache } from "./session-cache";

/** better-auth's id for the Google provider: its callback is /api/auth/callback/google (decision 0061). */
export const GOOGLE_PROVIDER_ID = "google";

/**
 * The sign-in methods createAuth plugs into better-auth, handed in by the composition root
 * (server/http/app.ts, tests/support/test-context.ts; built by server/accounts/sign-in-methods.ts).
 * Decision 0150: magic-link.ts and google.ts use the Auth type and the account
 * functions, so auth.ts imports neither and the accounts area has no import cycle.
 */
export interface SignInMethods {
  magicLink: {
    /** How long a mailed link works (decision 0060). */
    expiresInMs: number;
    /** The plugin's `sendMagicLink`: renders and queues the mail. */
    send(data: { email: string; token: string; metadata?: Record<string, unknown> }): Promise<void>;
  };
  google: {
    /** The genericOAuth provider, or null when Google is not configured (docs/contract.md). */
    provider: GenericOAuthConfig | null;
    /** Whether the user being created comes from the Google callback. */
    isSignUp(): Promise<boolean>;
    /** Where OAuth failures without an error URL of their own land: where the Google button is. */
    errorPath: string;
  };
}

/**
 * The hosts better-auth builds its own URLs for and the origins it trusts (decision 0110,
 * decision 0110): the configured ones (CAMPUS_HOSTS and their www., PUBLIC_URL) and,
 * outside production only, every campus under localhost on any port. Any other host
 * gets the fallback: the default campus's own address.
 */
/** Whether the operator named the site's hosts (PUBLIC_URL or CAMPUS_HOSTS). */
export function hasConfiguredHosts(config: HostConfig): boolean {
  return config.publicUrl !== null || Object.keys(config.campusHosts).length > 0;
}

export function authHosts(config: HostConfig): {
  allowedHosts: string[];
  trustedOrigins: string[];
  fallback: string;
} {
  const allowedHosts: string[] = [];
  const trustedOrigins: string[] = [];
  for (const host of Object.values(config.campusHosts)) {
    allowedHosts.push(host, `www.${host}`);
    trustedOrigins.push(`https://${host}`, `https://www.${host}`);
  }
  if (config.publicUrl) {
    const publicUrl = new URL(config.publicUrl);
    allowedHosts.push(publicUrl.host);
    trustedOrigins.push(publicUrl.origin);
  }
  // Production trusts only its configured hosts. One with none configured (NODE_ENV=production on
  // one machine, as the benchmark runs) has docs/contract.md's localhost hosts as its configuration;
  // startApp warns about it. A Host header of anyone else's is never trusted either way.
  if (!config.production || !hasConfiguredHosts(config)) {
    const development = [
      "localhost",
      "localhost:*",
      "*.localhost",
      "*.localhost:*",
      "127.0.0.1",
      "127.0.0.1:*",
    ];
    allowedHosts.push(...development);
    trustedOrigins.push(...development.flatMap((host) => [`http://${host}`, `https://${host}`]));
  }
  return { allowedHosts, trustedOrigins, fallback: campusOrigin(DEFAULT_CAMPUS_ID, null, config) };
}

/**
 * The better-auth endpoints reachable over HTTP under /api/auth (server/http/app.ts
 * answers 404 for every other one). Sign-up, sign-in, password reset and profile
 * changes go through our domain functions (server/accounts/accounts.ts), which call
 * better-auth's server API after applying the spec's rules; better-auth's
 * `disabledPaths` would not do, since it only filters HTTP requests and we want an
 * allow-list, so new endpoints (plugins of later issues) stay closed until listed here.
 * Google's provider redirects the browser to its callback (decision 0061); magic links
 * open /login/sent, whose loader verifies them through the server API (decision 0060),
 * so neither /sign-in/magic-link, /magic-link/verify nor /sign-in/social is public.
 */
export const PUBLIC_AUTH_PATHS: readonly string[] = [
  "/get-session",
  "/sign-out",
  "/ok",
  "/error",
  `/callback/${GOOGLE_PROVIDER_ID}`,
];

export function isPublicAuthPath(path: string): boolean {
  const normalised = path.replace(/\/+$/, "") || "/";
  return PUBLIC_AUTH_PATHS.includes(normalised);
}

/**
 * better-auth: passwords (scrypt), database sessions and their cookies, e-mail links
 * (magicLink) and Google (genericOAuth). Sign-up, codes, throttling and bans are our
 * domain functions around it.
 */
export function createAuth(ctx: AppContext, methods: SignInMethods) {
  const hosts = authHosts(ctx.config);
  const google = methods.google.provider;
  // Decision 0350: who a session cookie belongs to, for a few seconds; a session deleted here is forgotten at once.
  const sessionLookups = createSessionLookupCache({ now: () => ctx.clock.now().getTime() });
  const auth = betterAuth({
    appName: "Campus Buy Sell",
    secret: ctx.config.appSecret,
    baseURL: { allowedHosts: hosts.allowedHosts, fallback: hosts.fallback },
    trustedOrigins: hosts.trustedOrigins,
    database: drizzleAdapter(ctx.db, { provider: "pg", schema, transaction: true }),
    telemetry: { enabled: false },
    user: {
      fields: { emailVerified: "verified", image: "img" },
      additionalFields: {
        firstName: { type: "string", required: true, input: true },
        lastName: { type: "string", required: true, input: true },
        username: { type: "string", required: true, input: true },
        campusId: { type: "string", required: true, input: true },
        // Read by the session hook below; never set through better-auth.
        banned: { type: "boolean", required: false, defaultValue: false, input: false, returned: false },
        // Decision 0571: read by the same hook; set only by the account's deletion.
        deletedAt: { type: "date", required: false, input: false, returned: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 30,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    databaseHooks: {
      user: {
        create: {
          // spec 1 §4: 'verified starts true for Google sign-up'. Other accounts are created by our
          // domain functions with verified set as the spec says.
          before: async (data) =>
            (await methods.google.isSignUp()) ? { data: { ...data, emailVerified: true } } : undefined,
          // Decision 0522: an account created verified (Google) whose address is in ADMIN_EMAILS.
          after: async (created) => {
            if (created.emailVerified) await syncConfiguredAdminOf(ctx, ctx.db, created.id);
          },
        },
      },
      account: {
        create: {
          // Decision 0573: a deleted account keeps its address for 30 days; a provider whose address
          // matches it (Google) must link nothing to the tombstone, whatever better-auth's linking
          // rules would allow. Refused before the row is written, so the tombstone is untouched.
          before: async (linked, context) => {
            // Outside an endpoint (a direct adapter call) there is no request context: the instance's own.
            const adapter = (context?.context ?? (await auth.$context)).internalAdapter;
            const owner = await adapter.findUserById(linked.userId);
            if (owner && (owner as Record<string, unknown>).deletedAt) {
              throw new APIError("FORBIDDEN", {
                code: RESERVED_AUTH_CODE,
                message: ACCOUNT_MESSAGES.userNotFound,
              });
            }
          },
        },
      },
      session: {
        create: {
          // spec 1 §6: banned accounts cannot sign in, by any method. The domain functions refuse them
          // first with the spec's message; this is the one place no sign-in path can get around.
          before: async (session, context) => {
            const owner = context ? await context.context.internalAdapter.findUserById(session.userId) : null;
            if (owner && (owner as Record<string, unknown>).banned === true) {
              throw new APIError("FORBIDDEN", { code: BANNED_AUTH_CODE, message: ACCOUNT_MESSAGES.banned });
            }
            // Decision 0571: a deleted account never gets a session, by any path (a Google sign-in
            // with its reserved address included).
            if (owner && (owner as Record<string, unknown>).deletedAt) {
              throw new APIError("FORBIDDEN", { message: ACCOUNT_MESSAGES.userNotFound });
            }
          },
        },
        delete: {
          // Sign-out, a password reset, 'sign out other devices': every session better-auth deletes.
          before: async (session) => {
            sessionLookups.forget(session.token);
          },
        },
      },
    },
    plugins: [
      // Decision 0060: links are minted and consumed by the plugin, mailed through our outbox.
      magicLink({
        expiresIn: methods.magicLink.expiresInMs / 1000,
        // Accounts are created by completeMagicLink with the spec's rules, never by the plugin.
        disableSignUp: true,
        storeToken: "hashed",
        sendMagicLink: ({ email, token, metadata }) => methods.magicLink.send({ email, token, metadata }),
      }),
      // Decision 0061: Google through OpenID Connect discovery (docs/architecture.md pitfall 8).
      genericOAuth({ config: google ? [google] : [] }),
    ],
    // OAuth failures that carry no error URL of their own land where the Google button is.
    onAPIError: { errorURL: methods.google.errorPath },
    // Login throttling is ours (per account and per address, in the database: server/accounts/throttle.ts).
    rateLimit: { enabled: false },
    // Into our log rather than the console (a stray console.error fails a test).
    logger: {
      level: "info",
      log: (level, message, ...args) =>
        ctx.log[level]({ betterAuth: args.length > 0 ? args : undefined }, message),
    },
    advanced: {
      // better-auth skips its Origin check when NODE_ENV=test; tests check what production does.
      disableOriginCheck: false,
      useSecureCookies: ctx.config.production,
      // server/http/app.ts sets this header from the socket (or X-Forwarded-For with TRUST_PROXY=1).
      ipAddress: { ipAddressHeaders: ["x-cbs-client-ip"] },
    },
  });
  return Object.assign(auth, { sessionLookups });
}

export type Auth = ReturnType<typeof createAuth>;
