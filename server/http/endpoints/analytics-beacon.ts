import { getSessionCookie } from "better-auth/cookies";
import express, { type Express, type Request } from "express";
import type { Auth } from "../../accounts/auth";
import { getViewerFromHeaders } from "../../accounts/viewer";
import { analyticsInputSchema, trackPostAnalytics } from "../../ads/analytics";
import type { AppContext } from "../../context";

/** The analytics beacon (spec 2 §7 trackPostAnalytics, decision 0273). */
export const ANALYTICS_PATH = "/api/analytics";

/** The visitor's analytics session (signed, server/ads/analytics.ts issueVisitorSession). */
const VISITOR_COOKIE = "cbs_as";

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || null;
  }
  return null;
}

const STATUS = { done: 204, forbidden: 403, "session-issued": 202, throttled: 429 } as const;

/**
 * `POST /api/analytics` (form: postId, action, token), sent by the browser from sponsored cards
 * and boosted posts' pages. Mounted ahead of the page cache: a beacon changes no page a visitor
 * is served, so it must not empty the cache as other writes do. The rules are the domain's
 * (trackPostAnalytics; decision 0467): a token of a page of this host's campus, a
 * session the server gave out, new visitor sessions limited per address.
 */
export function mountAnalytics(app: Express, deps: { ctx: AppContext; auth: Auth }): void {
  const { ctx, auth } = deps;
  app.post(
    ANALYTICS_PATH,
    express.urlencoded({ extended: false, limit: "2kb" }),
    async (req: Request, res) => {
      res.setHeader("Cache-Control", "no-store");
      const parsed = analyticsInputSchema.safeParse(req.body);
      if (!parsed.success) {
        res.status(400).json({ message: "Bad Request" });
        return;
      }
      try {
        const headers = new Headers();
        if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
        const sessionToken = getSessionCookie(headers);
        const viewer = sessionToken ? await getViewerFromHeaders(ctx, auth, headers) : null;
        const outcome = await trackPostAnalytics(ctx, {
          ...parsed.data,
          campusId: ctx.campuses.forHost(req.headers.host).id,
          signedIn: viewer ? { userId: viewer.id } : null,
          visitorSession: cookieValue(req.headers.cookie, VISITOR_COOKIE),
          address: req.ip ?? null,
        });
        if (outcome.kind === "session-issued") {
          // Lasts as long as the browser session (spec 2 §4 'once per post per session').
          res.cookie(VISITOR_COOKIE, outcome.visitorSession, {
            httpOnly: true,
            sameSite: "lax",
            secure: ctx.config.production,
            path: ANALYTICS_PATH,
          });
        }
        res.status(STATUS[outcome.kind]).end();
      } catch (error) {
        ctx.log.error({ err: error }, "analytics failed");
        res.status(500).json({ message: "Something went wrong" });
      }
    },
  );
}
