import { randomBytes } from "node:crypto";
import { getSessionCookie } from "better-auth/cookies";
import type { NextFunction, Request, Response } from "express";

/**
 * Security headers on every response. Scripts run only with this request's
 * nonce (React Router's hydration data and module scripts carry it); styles
 * allow inline attributes because React renders style props.
 *
 * Forms post to this site only (decision 0112). `formActionOrigins` adds the few other origins a
 * form submission may end at: browsers (Chrome) apply form-action to the redirects that follow a
 * submission, and 'Continue with Google' without JavaScript is a form posted here that is
 * redirected to the provider (decision 0112).
 */
export function securityHeaders(options: {
  production: boolean;
  dev: boolean;
  formActionOrigins?: readonly string[];
}) {
  const formAction = [`'self'`, ...(options.formActionOrigins ?? [])].join(" ");
  return (_req: Request, res: Response, next: NextFunction) => {
    // Vite's dev server injects its HMR client and React refresh preamble, so
    // development allows inline scripts and renders no nonce at all (a nonce
    // would also make React warn: browsers hide the attribute from the DOM).
    const nonce = options.dev ? "" : randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    const scriptSrc = options.dev ? [`'self'`, `'unsafe-inline'`] : [`'self'`, `'nonce-${nonce}'`];
    const connectSrc = options.dev ? `'self' ws: wss:` : `'self'`;
    const directives = [
      `default-src 'self'`,
      `script-src ${scriptSrc.join(" ")}`,
      `style-src 'self' 'unsafe-inline'`,
      `img-src 'self' data: blob:`,
      `media-src 'self' blob:`,
      `font-src 'self' data:`,
      `connect-src ${connectSrc}`,
      `form-action ${formAction}`,
      `frame-ancestors 'none'`,
      `base-uri 'self'`,
      `object-src 'none'`,
    ];
    res.setHeader("Content-Security-Policy", directives.join("; "));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (options.production) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/**
 * Browsers say where a request comes from (Fetch Metadata). A form posted to us
 * from another site is refused, so no page elsewhere can sign a student into an
 * account of the attacker's or act in their name. Server-to-server calls
 * (webhooks) carry no such header and pass.
 */
export function rejectCrossSiteWrites() {
  return (req: Request, res: Response, next: NextFunction) => {
    const safe = req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS";
    if (!safe && req.headers["sec-fetch-site"] === "cross-site") {
      res.status(403).type("text/plain").send("Cross-site form submissions are not accepted.");
      return;
    }
    next();
  };
}

/**
 * Decision 0111: a page rendered for a session (its HTML, or React Router's `.data` answer for
 * the same page) shows that person's data, the settings their e-mail and phone: no cache,
 * shared or the browser's, may keep it. Any request carrying a session cookie counts, as in
 * getViewerFromHeaders (server/accounts/viewer.ts); visitors' pages are untouched, so the
 * visitor page cache (decision 0104), which never serves such requests, works as before.
 */
export function privateForSessions() {
  return (req: Request, res: Response, next: NextFunction) => {
    const cookie = req.headers.cookie;
    if (cookie && getSessionCookie(new Headers({ cookie })))
      res.setHeader("Cache-Control", "private, no-store");
    next();
  };
}

/** The methods a page, a form or an API of ours may be asked with. */
const SUPPORTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Decision 0471: TRACE (and CONNECT, TRACK, anything else) reached React Router, whose Request cannot
 * carry it: the error that followed was answered by Express's own handler with a stack trace
 * outside production. No page answers such a method: 405, with the methods that are.
 */
export function refuseUnsupportedMethods() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SUPPORTED_METHODS.includes(req.method)) {
      next();
      return;
    }
    res.status(405).setHeader("Allow", SUPPORTED_METHODS.join(", "));
    res.type("text/plain").send("This method is not allowed.");
  };
}
