import { redirect } from "react-router";
import type { Viewer } from "~/server/accounts/viewer";
import { appCookie } from "./cookies.server";

/**
 * spec 1 §1: 'On the generic instance a stored redirect_to campus id sends the
 * user to that campus's site.' Like the §4 redirects it happens once per browser
 * session (a session cookie remembers it), so the member can come back to the
 * generic instance and stay. It is separate from verification-redirect.server.ts
 * because its target is another site, computed per user (decision 0073).
 */
/** Signed (decision 0111): a forged value would skip the redirect. */
const doneCookie = appCookie("cbs_campus_redirect", { path: "/", httpOnly: true, sameSite: "lax" });

/** Pages it never interrupts: signing in or out, settings, the dev mailbox, /404. */
const exempt = [
  /^\/(user_registration|login|login\/sent|register|verify|forgotpassword|reset-password|logout|404)\/?$/,
  /^\/settings(\/.*)?$/,
  /^\/dev\/mail\/?$/,
];

/** The campus site a member should be sent to now, or null. */
export function campusRedirectTarget(
  viewer: Pick<Viewer, "redirectTo"> | null,
  campus: { id: string; generic: boolean },
  pathname: string,
  alreadyDone: boolean,
): string | null {
  if (!campus.generic || alreadyDone || !viewer?.redirectTo || viewer.redirectTo === campus.id) return null;
  if (exempt.some((pattern) => pattern.test(pathname))) return null;
  return viewer.redirectTo;
}

/**
 * Called by the root loader: throws the redirect to `campusUrl(redirect_to)`
 * the first time in a browser session, and does nothing after.
 */
export async function applyCampusRedirect(
  request: Request,
  viewer: Viewer | null,
  campus: { id: string; generic: boolean },
  campusUrl: (campusId: string) => string,
): Promise<void> {
  if (!campus.generic || !viewer?.redirectTo) return;
  const done = (await doneCookie().parse(request.headers.get("Cookie"))) === true;
  const target = campusRedirectTarget(viewer, campus, new URL(request.url).pathname, done);
  if (!target) return;
  throw redirect(`${campusUrl(target)}/home`, {
    headers: { "Set-Cookie": await doneCookie().serialize(true) },
  });
}
