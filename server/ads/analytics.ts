import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { type ThrottleRule, takeAttempt } from "../accounts/throttle";
import type { AppContext } from "../context";
import { isUuid } from "../db/ids";

import { ANALYTICS_ACTIONS, type AnalyticsAction } from "./analytics-actions";

export { ANALYTICS_ACTIONS, type AnalyticsAction };

export const analyticsInputSchema = z.object({
  postId: z.string().refine(isUuid),
  action: z.enum(ANALYTICS_ACTIONS),
  token: z.string().max(200),
});

const HOUR_MS = 60 * 60 * 1000;

function sign(ctx: AppContext, purpose: string, value: string): string {
  return createHmac("sha256", ctx.config.appSecret).update(`${purpose}:${value}`).digest("base64url");
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Decision 0467: what a page the server rendered gives the browser to count
 * actions on a boosted post — an HMAC (the app secret) over the post, its campus and an
 * expiry. Not per visitor: visitors' pages are cached and shared (decisions 0104, 0293), so
 * the token is the same for every render within a clock hour (identical cached bytes) and
 * lasts one to two hours. The visitor is told apart by the signed session cookie instead.
 */
export function issueAnalyticsToken(ctx: AppContext, ref: { postId: string; campusId: string }): string {
  const expires = (Math.floor(ctx.clock.now().getTime() / HOUR_MS) + 2) * HOUR_MS;
  const stamp = expires.toString(36);
  return `${stamp}.${sign(ctx, "analytics-token", `${ref.postId}:${ref.campusId}:${stamp}`)}`;
}

/** Whether `token` was issued for this post on this campus and has not expired. */
export function isAnalyticsTokenValid(
  ctx: AppContext,
  token: string,
  ref: { postId: string; campusId: string },
): boolean {
  const [stamp, signature, ...rest] = token.split(".");
  if (!stamp || !signature || rest.length > 0) return false;
  const expires = Number.parseInt(stamp, 36);
  if (!Number.isFinite(expires) || expires <= ctx.clock.now().getTime()) return false;
  return sameText(signature, sign(ctx, "analytics-token", `${ref.postId}:${ref.campusId}:${stamp}`));
}

/** A visitor's analytics session: random, signed, so a value the server never gave out counts nothing. */
export function issueVisitorSession(ctx: AppContext): string {
  const id = randomBytes(18).toString("base64url");
  return `${id}.${sign(ctx, "analytics-visitor", id)}`;
}

/** The visitor session's id, or null for a value the server did not sign. */
export function readVisitorSession(ctx: AppContext, value: string | null): string | null {
  if (!value || value.length > 120) return null;
  const [id, signature, ...rest] = value.split(".");
  if (!id || !signature || rest.length > 0) return null;
  return sameText(signature, sign(ctx, "analytics-visitor", id)) ? id : null;
}

/**
 * New visitor sessions per client address (decision 0467): 60 an hour. A reader keeps one for
 * the whole browser session, so this only stops an address from minting sessions to count a
 * post again and again; a campus network behind one address still has room for 60 newcomers
 * an hour. Signed-in readers are counted once per account.
 */
export const VISITOR_SESSIONS_PER_ADDRESS: ThrottleRule = {
  maxFailures: 60,
  windowMs: HOUR_MS,
  lockMs: HOUR_MS,
};

/** What `trackPostAnalytics` decided; the route turns it into a status. */
export type AnalyticsOutcome =
  /** Counted, or already counted for this session (the answer is the same, 204). */
  | { kind: "done"; counted: boolean }
  /** The token is not this post's on this campus, or has expired (403): e.g. another campus's host. */
  | { kind: "forbidden" }
  /** A visitor without a session: here is one to keep (202; the browser sends the action again). */
  | { kind: "session-issued"; visitorSession: string }
  /** This address made too many visitor sessions lately (429). */
  | { kind: "throttled" };

/**
 * `POST /api/analytics` without HTTP (spec 2 §7 trackPostAnalytics; decisions
 * 0273 and 0467): counts an action only with a token a page of this campus was rendered with,
 * and only for a session the server gave out — the sign-in session, or a signed visitor
 * session, which a request without one receives instead of being counted (at most
 * VISITOR_SESSIONS_PER_ADDRESS an hour per address). So a script posting without cookies
 * counts nothing, one keeping its cookie counts once, and a post of another campus never.
 */
export async function trackPostAnalytics(
  ctx: AppContext,
  input: {
    postId: string;
    action: AnalyticsAction;
    token: string;
    /** The campus of the host the request came to. */
    campusId: string;
    /** The signed-in viewer, as the session check verified them. */
    signedIn: { userId: string } | null;
    /** The visitor session cookie's value, as sent. */
    visitorSession: string | null;
    /** The client's address (null when unknown: all such requests share one allowance). */
    address: string | null;
  },
): Promise<AnalyticsOutcome> {
  const ref = { postId: input.postId, campusId: input.campusId };
  if (!isAnalyticsTokenValid(ctx, input.token, ref)) return { kind: "forbidden" };
  let sessionKey: string;
  if (input.signedIn) {
    // By the account, never by the cookie's text: a cookie header can name a session twice, and
    // signing in again makes a new session, so either would count one reader again and again.
    sessionKey = sessionKeyOf("user", input.signedIn.userId);
  } else {
    const visitor = readVisitorSession(ctx, input.visitorSession);
    if (!visitor) {
      const allowed = await takeAttempt(
        ctx.db,
        `analytics-visitor:${input.address ?? "unknown"}`,
        VISITOR_SESSIONS_PER_ADDRESS,
        ctx.clock.now(),
      );
      return allowed
        ? { kind: "session-issued", visitorSession: issueVisitorSession(ctx) }
        : { kind: "throttled" };
    }
    sessionKey = sessionKeyOf("anon", visitor);
  }
  const counted = await recordAnalytics(ctx, {
    ...ref,
    action: input.action,
    sessionKey,
    userId: input.signedIn?.userId ?? null,
  });
  return { kind: "done", counted };
}

/**
 * The browser session an action is counted once for (spec 2 §4 'at most once per post per
 * session'; decision 0273): a signed-in reader's account (decision 0467: the cookie's text
 * could be varied), or the anonymous per-browser-session cookie the analytics endpoint signs
 * for visitors. Hashed, so the table never holds a usable session value.
 */
export function sessionKeyOf(kind: "user" | "anon", value: string): string {
  return createHash("sha256").update(`${kind}:${value}`).digest("base64url").slice(0, 32);
}

const COLUMN: Record<AnalyticsAction, string> = {
  view: "views",
  direct_message: "direct_messages",
  copied_link: "copied_link",
  external_link_click: "external_link_clicks",
  profile_visit: "profile_visits",
};

/**
 * Counts an action on a boosted post at most once per (post, action, browser session), and a
 * view by a signed-in account once per (post, account) as 'accounts reached' — the
 * de-duplication rows and the counters written in ONE statement, so concurrent repeats cannot
 * count twice (decision 0273). Only posts with a running ad count: the numbers are the ads'
 * (spec 2 §6), and a request about any other post, or about a post of another campus
 * (decision 0467), writes nothing. No IP address is looked up
 * or stored (the spec's public IP lookup is dropped). Returns whether anything was counted.
 */
export async function recordAnalytics(
  ctx: AppContext,
  input: {
    postId: string;
    campusId: string;
    action: AnalyticsAction;
    sessionKey: string;
    userId: string | null;
  },
): Promise<boolean> {
  const column = sql.raw(COLUMN[input.action]);
  const reachKey = input.action === "view" && input.userId ? `user:${input.userId}` : null;
  const now = ctx.clock.now();
  const result = await ctx.db.execute(sql`
    with boosted as (
      select distinct a.post_id from ads a
      where a.post_id = ${input.postId}::uuid and a.campus_id = ${input.campusId}
        and a.status = 'active' and a.end_time_adjusted > ${now}
    ),
    fresh as (
      insert into analytics_events (post_id, action, session_key, created_at)
      select post_id, k.action, k.session_key, ${now} from boosted
      cross join (values (${input.action}::text, ${input.sessionKey}::text), ('reach', ${reachKey}::text)) as k(action, session_key)
      where k.session_key is not null
      on conflict do nothing
      returning action
    )
    insert into post_analytics (post_id, ${column}, accounts_reached)
    select ${input.postId}::uuid,
      count(*) filter (where action <> 'reach'),
      count(*) filter (where action = 'reach')
    from fresh
    having count(*) > 0
    on conflict (post_id) do update set
      ${column} = post_analytics.${column} + excluded.${column},
      accounts_reached = post_analytics.accounts_reached + excluded.accounts_reached
    returning post_id
  `);
  // Both drivers (PGlite, node-postgres) answer with `rows`.
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}
