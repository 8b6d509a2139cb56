import { redirect } from "react-router";
import type { Viewer } from "~/server/accounts/viewer";
import { appCookie } from "./cookies.server";

/**
 * spec 1 §4: 'A user whose e-mail is not verified goes to /verify; a user whose
 * school is not verified goes to /settings/account/school_email, except on the
 * generic campus. Each redirect happens once.' Each rule sends the viewer to its
 * page once per browser session; the rules already applied are remembered in a
 * session cookie (no expiry: it ends with the browser session, and sign-in and
 * sign-out clear it).
 */
interface OnceRedirectRule {
  id: string;
  target: string;
  applies(viewer: Viewer, campus: { generic: boolean }): boolean;
}

const rules: OnceRedirectRule[] = [
  { id: "verify-email", target: "/verify", applies: (viewer) => !viewer.verified },
  {
    id: "verify-school",
    target: "/settings/account/school_email",
    // The generic instance has no school of its own: its users pick one at /search_schools.
    applies: (viewer, campus) => viewer.verified && !viewer.schoolVerified && !campus.generic,
  },
];

/**
 * Pages a redirect never interrupts: the auth pages, log out, static policy pages, the
 * account settings (where the user may be fixing their e-mail or proving their school),
 * Find Your School, the dev mailbox.
 */
const exempt = [
  /^\/(user_registration|login|login\/sent|register|verify|forgotpassword|reset-password|logout|search_schools)\/?$/,
  /^\/settings\/(about|howitworks|returns|trust_and_safety|terms|privacy|cookies|help|feedback)\/?$/,
  /^\/settings\/account(\/[a-z_]+)?\/?$/,
  /^\/dev\/mail\/?$/,
];

/** Signed (decision 0111): a forged value would skip the redirects. */
const doneCookie = appCookie("cbs_once_redirects", { path: "/", httpOnly: true, sameSite: "lax" });

async function readDone(request: Request): Promise<string[]> {
  const value: unknown = await doneCookie().parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/**
 * Called by the root loader: throws the redirect a rule asks for (once), or
 * returns headers recording that the viewer has reached a rule's page anyway.
 */
export async function applyOnceRedirects(
  request: Request,
  viewer: Viewer | null,
  campus: { generic: boolean },
): Promise<Headers> {
  const headers = new Headers();
  if (!viewer) return headers;
  const pathname = new URL(request.url).pathname;
  const done = await readDone(request);
  for (const rule of rules) {
    if (done.includes(rule.id) || !rule.applies(viewer, campus)) continue;
    const marked = await doneCookie().serialize([...done, rule.id]);
    // Reaching the page by any way counts as the one redirect.
    if (pathname === rule.target) {
      headers.append("Set-Cookie", marked);
      return headers;
    }
    if (exempt.some((pattern) => pattern.test(pathname))) return headers;
    throw redirect(rule.target, { headers: { "Set-Cookie": marked } });
  }
  return headers;
}

/** Headers that forget the redirects already made: a new sign-in gets its own. */
export async function resetOnceRedirects(headers = new Headers()): Promise<Headers> {
  headers.append("Set-Cookie", await doneCookie().serialize([], { maxAge: 0 }));
  return headers;
}
