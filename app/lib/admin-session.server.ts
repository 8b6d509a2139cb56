import { getSessionCookie } from "better-auth/cookies";
import { type AdminSession, sessionTokenOf } from "~/server/admin/reauth";

/**
 * Decision 0563: the request's own session for the console's recent sign-in check. The cookie's
 * signature was checked when the viewer was looked up (getViewer): its token part names the row.
 */
export function adminSessionOf(request: Request): AdminSession {
  return { token: sessionTokenOf(getSessionCookie(request.headers)) };
}
